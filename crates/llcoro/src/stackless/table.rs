//! The frame descriptor table (version 1; docs/stackless.md gives the layout): one header per
//! module in the section `llcoro_frames`, pointing at an array with one entry per call site. A
//! runtime finds every module's header between the linker's `__start_llcoro_frames` and
//! `__stop_llcoro_frames`, and a call site by the return-address key a suspended frame holds.

use super::{CallSite, Lowered};
use llir::ItemKind;
use llir::Module;
use llir::ir::Function;
use llir::print::Edits;
use llir::types::TypeTable;
use std::fmt::Write;

/// "LCFT" read as a little-endian u32.
pub const MAGIC: u32 = 0x5446_434c;
pub const VERSION: u16 = 1;
/// Bytes per call-site entry on a 64-bit target: three pointers, six 32-bit fields, one pointer.
pub const ENTRY_SIZE: u16 = 56;
pub const SECTION: &str = "llcoro_frames";

/// One lowered function's call sites, with its name and how a pointer to it is spelled.
pub struct FunctionSites {
    name: String,
    /// `ptr @f`, or in typed IR `i8* bitcast (<type>* @f to i8*)`.
    fn_ptr: String,
    /// How a pointer to the re-entry function is spelled, or `null`.
    reentry_ptr: String,
    typed: bool,
    sites: Vec<CallSite>,
    spill_size: u64,
}

impl FunctionSites {
    pub fn new(f: &Function, types: &TypeTable, typed: bool, l: &Lowered, reentry: Option<&Function>) -> FunctionSites {
        let fn_ptr = pointer_to(f, types, typed);
        let reentry_ptr = match reentry {
            Some(g) => pointer_to(g, types, typed),
            None => format!("{} null", if typed { "i8*" } else { "ptr" }),
        };
        FunctionSites {
            name: f.name.to_string(),
            fn_ptr,
            reentry_ptr,
            typed,
            sites: l.sites.clone(),
            spill_size: l.spill_size,
        }
    }
}

/// `ptr @f`, or in typed IR `i8* bitcast (<type>* @f to i8*)`.
fn pointer_to(f: &Function, types: &TypeTable, typed: bool) -> String {
    if !typed {
        return format!("ptr {}", f.name);
    }
    let params: Vec<String> = f.header.params.iter().map(|p| types.display(p.ty)).collect();
    let va = if f.header.vararg { if params.is_empty() { "..." } else { ", ..." } } else { "" };
    format!("i8* bitcast ({} ({}{va})* {} to i8*)", types.display(f.header.ret), params.join(", "), f.name)
}

/// Appends the table for `functions` (nothing when no call site was lowered) and keeps it alive
/// through `@llvm.used`.
pub fn emit(m: &Module, edits: &mut Edits, functions: &[FunctionSites]) {
    let count: usize = functions.iter().map(|f| f.sites.len()).sum();
    if count == 0 {
        return;
    }
    let typed = functions.iter().any(|f| f.typed);
    let ptr = if typed { "i8*" } else { "ptr" };
    let entry_ty = format!("{{ {ptr}, {ptr}, {ptr}, i32, i32, i32, i32, i32, i32, i32* }}");
    let entry_ty = if typed { entry_ty } else { entry_ty.replace("i32*", "ptr") };
    // Names the module does not use: the runtime finds the table by its section, not its name.
    let name = |base: String| crate::coro::split::unused_global_name(base, &m.globals);
    let (header, sites) = (name("@llcoro.frames".into()), name("@llcoro.frames.sites".into()));
    let mut text = String::new();
    let mut entries = Vec::new();
    let mut k = 0usize;
    for func in functions {
        for site in &func.sites {
            let gc = if site.gc_slots.is_empty() {
                format!("{} null", if typed { "i32*" } else { "ptr" })
            } else {
                let n = site.gc_slots.len();
                let vals: Vec<String> = site.gc_slots.iter().map(|o| format!("i32 {o}")).collect();
                let gc = name(format!("@llcoro.frames.gc.{k}"));
                let _ = writeln!(text, "{gc} = private constant [{n} x i32] [{}]", vals.join(", "));
                if typed {
                    format!("i32* getelementptr ([{n} x i32], [{n} x i32]* {gc}, i64 0, i64 0)")
                } else {
                    format!("ptr {gc}")
                }
            };
            let key = format!("{ptr} blockaddress({}, %{})", func.name, site.resume_block);
            entries.push(format!(
                "{entry_ty} {{ {key}, {}, {}, i32 {}, i32 {}, i32 {}, i32 -1, i32 {}, i32 0, {gc} }}",
                func.fn_ptr,
                func.reentry_ptr,
                site.ra_offset,
                site.spill_offset,
                func.spill_size,
                site.gc_slots.len()
            ));
            k += 1;
        }
    }
    let _ = writeln!(text, "{sites} = private constant [{count} x {entry_ty}] [{}]", entries.join(", "));
    let sites_ptr = if typed {
        format!("{entry_ty}* getelementptr ([{count} x {entry_ty}], [{count} x {entry_ty}]* {sites}, i64 0, i64 0)")
    } else {
        format!("ptr {sites}")
    };
    let header_ty =
        format!("{{ i32, i16, i16, i32, i32, {} }}", if typed { format!("{entry_ty}*") } else { "ptr".into() });
    let _ = write!(
        text,
        "{header} = internal constant {header_ty} {{ i32 {MAGIC}, i16 {VERSION}, i16 {ENTRY_SIZE}, i32 {count}, i32 0, {sites_ptr} }}, section \"{SECTION}\", align 8"
    );
    let used_ref = if typed { format!("i8* bitcast ({header_ty}* {header} to i8*)") } else { format!("ptr {header}") };
    // Keep the header: nothing references it but the runtime, through the section.
    let used =
        m.items.iter().enumerate().find(|(i, it)| it.kind == ItemKind::Global && m.item_name(*i) == "@llvm.used");
    match used.and_then(|(i, _)| Some((i, add_to_used(m.item_text(i), &used_ref)?))) {
        Some((i, new)) => {
            edits.replace.insert(i, new);
        }
        None if used.is_none() => {
            let _ = write!(text, "\n@llvm.used = appending global [1 x {ptr}] [{used_ref}], section \"llvm.metadata\"");
        }
        // An `@llvm.used` we cannot extend: the header stays unreferenced (still emitted; only
        // -O2's global dead-code elimination may drop it).
        None => {}
    }
    edits.append.push(text);
}

/// `@llvm.used = appending global [N x T] [a, b], ...` with `entry` added.
fn add_to_used(text: &str, entry: &str) -> Option<String> {
    let open = text.find('[')?;
    let x = text[open..].find(" x ")? + open;
    let n: usize = text[open + 1..x].trim().parse().ok()?;
    let close_ty = text[x..].find(']')? + x;
    let list_open = text[close_ty + 1..].find('[')? + close_ty + 1;
    let list_close = text[list_open..].find(']')? + list_open;
    let list = text[list_open + 1..list_close].trim();
    let new_list = if list.is_empty() { entry.to_string() } else { format!("{list}, {entry}") };
    Some(format!(
        "{}[{} x{}{}[{new_list}]{}",
        &text[..open],
        n + 1,
        &text[x + 2..=close_ty],
        &text[close_ty + 1..list_open],
        &text[list_close + 1..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn used_lists_grow_by_one() {
        let t = "@llvm.used = appending global [2 x ptr] [ptr @a, ptr @b], section \"llvm.metadata\"";
        assert_eq!(
            add_to_used(t, "ptr @llcoro.frames").as_deref(),
            Some(
                "@llvm.used = appending global [3 x ptr] [ptr @a, ptr @b, ptr @llcoro.frames], section \"llvm.metadata\""
            )
        );
    }

    #[test]
    fn typed_used_lists_keep_their_element_type() {
        let t = "@llvm.used = appending global [1 x i8*] [i8* bitcast (i32* @g to i8*)], section \"llvm.metadata\"";
        let r = add_to_used(t, "i8* @x");
        assert_eq!(
            r.as_deref(),
            Some(
                "@llvm.used = appending global [2 x i8*] [i8* bitcast (i32* @g to i8*), i8* @x], section \"llvm.metadata\""
            )
        );
    }
}
