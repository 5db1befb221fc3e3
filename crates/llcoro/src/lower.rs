//! Module-level driver of the switched-resume lowering: which functions to split, which to lower the
//! using intrinsics in, and the module edits that follow (new functions after their coroutine, the
//! `llvm.coro.*` declarations and the presplit attribute removed, the no-op coroutine added).
//! Passes read one function at a time; only this driver touches the module.
//!
//! Functions are lowered on all cores. Each thread interns types into its own copy of the module's
//! table and numbers the metadata it creates in a range of its own, so threads share nothing
//! mutable; results are merged in module order, so the output does not depend on scheduling.

use crate::coro::debug::MetaIndex;
use crate::coro::frame::{Dispatch, Env};
use crate::coro::intrinsics::{self, Ctx, Intr};
use crate::coro::provenance::Parsed;
use crate::coro::shape;
use crate::coro::split;
use crate::diag::Finding;
use codespan_reporting::diagnostic::Severity;
use llir::ir::{Function, Opcode};
use llir::layout::DataLayout;
use llir::print::{Edits, print_function};
use llir::types::TypeTable;
use llir::{ItemKind, Module};
use rustc_hash::{FxHashMap, FxHashSet};

/// What lowering produced: the edits, and warnings about non-canonical but lowerable input.
pub struct Lowered {
    pub edits: Edits,
    pub warnings: Vec<Finding>,
    /// Per split coroutine: its name and frame, for reports.
    pub frames: Vec<(String, FrameSummary)>,
}

/// What is kept of a split coroutine once its functions are printed.
pub struct FrameSummary {
    /// Which lowering made the frame: `None` for a coroutine frame, `Some("kxs")` for a suspend
    /// function's spill frame, `Some("stackless")` for a stackless function's spill area.
    pub lowering: Option<&'static str>,
    /// For kxs: each suspend point's marker id.
    pub marker_ids: Vec<i128>,
    pub frame: crate::frame::Frame,
    /// The spelling of each field's type (the frame's type handles belong to a worker's table).
    pub field_types: Vec<String>,
    pub returns_frame: bool,
    pub resume: String,
    pub destroy: String,
    pub suspend_points: u32,
    /// The heap-elided twin of the ramp and the cleanup function it installs, if one was made.
    pub elided: Option<(String, String)>,
    /// That cleanup function does nothing a program could see (`coro::effects::does_nothing`): a
    /// caller may drop a destroy of the elided frame.
    pub cleanup_does_nothing: bool,
    /// Callers that now keep this coroutine's frame in their own stack frame.
    pub elided_in: Vec<String>,
    /// The coroutine never suspends: its frame is on its own ramp's stack.
    pub on_own_stack: bool,
    /// The promise's type (`intrinsics::promise_type_name`), if the coroutine has a promise.
    pub promise_type: Option<String>,
    /// Where the ramp leaves the frame pointer, when `provenance` proved it.
    pub handle_out: Option<crate::coro::provenance::HandleOut>,
    /// A returned-continuation coroutine's buffer: its size and alignment, and whether the frame
    /// fits in it (else it is allocated and the buffer holds its address).
    pub buffer: Option<(u64, u64, bool)>,
    /// An async coroutine's context: header size, frame offset, context size, alignment.
    pub context: Option<(u64, u64, u64, u64)>,
}

impl FrameSummary {
    /// The summary of a frame another lowering than switched-resume made (no parts, no promise).
    fn of(
        lowering: &'static str,
        frame: crate::frame::Frame,
        types: &TypeTable,
        suspend_points: u32,
        marker_ids: Vec<i128>,
    ) -> FrameSummary {
        FrameSummary {
            lowering: Some(lowering),
            marker_ids,
            field_types: frame.fields.iter().map(|x| types.display(x.ty)).collect(),
            frame,
            returns_frame: false,
            resume: String::new(),
            destroy: String::new(),
            suspend_points,
            elided: None,
            cleanup_does_nothing: false,
            elided_in: Vec::new(),
            on_own_stack: false,
            promise_type: None,
            handle_out: None,
            buffer: None,
            context: None,
        }
    }
}

/// What callers learn about the module's coroutines once all are split.
#[derive(Default)]
struct Direct {
    /// Ramp (or elided twin) → its resume and destroy functions, for direct calls.
    parts: FxHashMap<String, (String, String)>,
    /// Ramp → its elided twin, frame size and alignment.
    elidable: FxHashMap<String, crate::coro::elide::Twin>,
    /// Wrappers given a twin this round may look for (`elide::wrapper_twin`), with the ramp each
    /// wraps once it has one.
    wrapping: bool,
    wrapped: FxHashMap<String, String>,
    /// Promise type → the parts of the module's one coroutine with that promise.
    by_promise: FxHashMap<String, intrinsics::PromiseParts>,
    /// The ramps of `elidable` whose frame is final (lowered for good, nothing elided into it
    /// later): a coroutine may hold one of these in its own frame.
    final_frames: FxHashSet<String>,
}

impl Direct {
    /// What callers learn from the frames made so far.
    fn from_frames(frames: &[(String, FrameSummary)], typed: bool) -> Direct {
        let mut direct = Direct::default();
        for (n, s) in frames {
            direct.register(n, s);
        }
        direct.by_promise = by_promise(frames, typed);
        direct
    }

    /// What callers may use of the coroutine `n` lowered as `s`: its parts, and its elided twin.
    fn register(&mut self, n: &str, s: &FrameSummary) {
        if s.resume.is_empty() {
            return;
        }
        if s.returns_frame {
            self.parts.insert(n.to_string(), (s.resume.clone(), s.destroy.clone()));
        }
        if let Some((twin, cleanup)) = &s.elided {
            if s.returns_frame {
                self.parts.insert(twin.clone(), (s.resume.clone(), cleanup.clone()));
            }
            let t = crate::coro::elide::Twin {
                name: twin.clone(),
                size: s.frame.size,
                align: s.frame.align,
                out: s.handle_out,
                cleanup: cleanup.clone(),
                cleanup_does_nothing: s.cleanup_does_nothing,
            };
            self.elidable.insert(n.to_string(), t);
        }
    }
}

/// Promise type → the parts of the one coroutine with that promise type (opaque pointers only).
/// Promise types shared by several coroutines give no likely target.
fn by_promise(frames: &[(String, FrameSummary)], typed: bool) -> FxHashMap<String, intrinsics::PromiseParts> {
    let mut out = FxHashMap::default();
    if typed {
        return out;
    }
    let mut seen: FxHashMap<&str, usize> = FxHashMap::default();
    for (_, s) in frames {
        if let Some(p) = &s.promise_type {
            *seen.entry(p.as_str()).or_default() += 1;
        }
    }
    for (_, s) in frames {
        if let Some(p) = &s.promise_type
            && seen.get(p.as_str()) == Some(&1)
            && !s.resume.is_empty()
        {
            let parts = intrinsics::PromiseParts {
                resume: s.resume.clone(),
                destroy: s.destroy.clone(),
                cleanup: s.elided.as_ref().map(|(_, c)| c.clone()),
            };
            out.insert(p.clone(), parts);
        }
    }
    out
}

/// The local names lowerings give without asking `unique_name` (parameters of new functions, their
/// entry blocks): where the input has one too, it keeps it.
const GIVEN_NAMES: &[&str] = &["hdl", "entry", "frame", "result", "frame.debug", "coro.unreachable"];
const NOOP_FRAME: &str = "@llcoro.noop.frame";
const NOOP_FN: &str = "@llcoro.noop.resume";
/// Metadata ids each worker may use for the nodes it creates, above the module's own.
const META_RANGE: u32 = 1 << 26;
/// How many pieces the functions to lower are cut into (each runs on a thread of its own).
const CHUNKS: usize = 8;
/// Metadata ids each worker may use in a round of the functions redone at the end.
const ROUND_RANGE: u32 = 1 << 20;

/// `items` in at most `n` contiguous pieces of about equal text size, the same on every machine.
fn chunked(items: &[usize], n: usize, size: &dyn Fn(usize) -> usize) -> Vec<Vec<usize>> {
    let total: usize = items.iter().map(|&i| size(i)).sum();
    let mut pieces: Vec<Vec<usize>> = vec![Vec::new()];
    let mut acc = 0;
    for &i in items {
        if acc > total / n * pieces.len() && pieces.len() < n {
            pieces.push(Vec::new());
        }
        acc += size(i);
        if let Some(c) = pieces.last_mut() {
            c.push(i);
        }
    }
    pieces
}

fn presplit_groups(m: &Module) -> Vec<(usize, String)> {
    m.items
        .iter()
        .enumerate()
        .filter(|(_, it)| it.kind == ItemKind::AttrGroup)
        .filter(|(i, _)| {
            let t = m.item_text(*i);
            t.contains("presplitcoroutine") || t.contains("\"coroutine.presplit\"")
        })
        .map(|(i, _)| (i, m.item_name(i).to_string()))
        .collect()
}

/// The names of the attribute groups that hold `word`.
fn groups_with(m: &Module, word: &str) -> Vec<String> {
    m.items
        .iter()
        .enumerate()
        .filter(|(i, it)| it.kind == ItemKind::AttrGroup && m.item_text(*i).contains(word))
        .map(|(i, _)| m.item_name(i).to_string())
        .collect()
}

/// A worker's copy of the module's types. With typed pointers, the pointer the lowering works with
/// (frame, handles, part pointers) is `i8*`, as in LLVM 14's own lowering.
fn worker_types(m: &Module) -> TypeTable {
    let mut types = m.types.clone();
    if m.typed {
        types.ptr = types.pointer_to(types.i8, 0, true);
    }
    types
}

/// The run's choices, as the command line gave them.
#[derive(Clone, Copy)]
struct Options {
    /// Nothing is rewritten: every finding comes back (`llcoro check`, `frames`).
    check_only: bool,
    dispatch: Dispatch,
    scope: Scope,
    /// Lower on the calling thread only.
    serial: bool,
    /// Every coroutine a `coroutine_handle<P>` can refer to is in this module (`--closed-promises`).
    closed_promises: bool,
}

/// What is shared, read-only, by every worker.
struct Shared<'a> {
    m: &'a Module,
    dl: DataLayout,
    group_refs: Vec<&'a str>,
    meta: Option<MetaIndex>,
    opts: Options,
    /// Ramps some caller may want a heap-elided twin of (`elide::wanted`).
    want_elided: FxHashSet<String>,
    /// Defined functions by name, for `provenance` (empty when nothing wants elision).
    names: FxHashMap<&'a str, usize>,
    /// Functions that may hand their caller a coroutine they made (`elide::wrapper_twin`).
    wrappers: FxHashSet<String>,
    /// Functions whose calls fold to a constant before a coroutine is split (`simplify`).
    trivial: FxHashMap<String, crate::coro::simplify::Trivial>,
    /// Attribute groups with `optnone`: such coroutines (clang -O0) keep every call, as LLVM's -O0
    /// pipeline does, for the debugger.
    optnone_groups: Vec<String>,
    /// Attribute groups with `coro_elide_safe` (LLVM 20+): calls that use one may be elided
    /// without proof (`elide::take_safe_marks`).
    elide_safe_groups: Vec<String>,
    /// Ramps some call marks safe to elide: they get a twin whatever their allocator.
    marked_safe: FxHashSet<String>,
    /// Metadata for the frame header's destroy slot (opaque pointers only).
    header_group: Option<intrinsics::HeaderGroup>,
    /// The no-op coroutine's frame and function: names the module does not have.
    noop: (String, String),
    /// The first metadata id workers may number their nodes from (above the module's and the
    /// header group's).
    meta_base: u32,
}

impl<'a> Shared<'a> {
    /// What the workers share, read from the module once; and the functions to lower, with the
    /// callers heap elision adds to `candidates`.
    fn new(m: &'a Module, group_refs: Vec<&'a str>, candidates: Vec<usize>, opts: Options) -> (Shared<'a>, Vec<usize>) {
        let (meta, wanted) = survey(m, &candidates, &group_refs, opts);
        let crate::coro::elide::Wanted { ramps: want_elided, callers, wrappers } = wanted;
        let mut candidates = candidates;
        if !callers.is_empty() {
            candidates.extend(callers);
            candidates.sort_unstable();
        }
        let trivial = if opts.scope == Scope::All && candidates.iter().any(|&i| is_coroutine_text(m, i, &group_refs)) {
            crate::coro::simplify::trivial_functions(m, &mut worker_types(m))
        } else {
            FxHashMap::default()
        };
        // New metadata is numbered above the module's: first the header group's two nodes, then the
        // debug info of split parts.
        let free_meta = first_free_meta(m);
        // Only handle methods' tests use the group: closed promises have none (and laundering the frame
        // pointer for nothing measured slower there).
        let header_group = (!m.typed && !opts.closed_promises)
            .then_some(intrinsics::HeaderGroup { group: free_meta, cold: free_meta + 1 });
        let elide_safe_groups = groups_with(m, "coro_elide_safe");
        let sh = Shared {
            m,
            dl: DataLayout::from_module_text(&m.src),
            group_refs,
            meta,
            opts,
            names: if want_elided.is_empty() { FxHashMap::default() } else { crate::coro::provenance::names(m) },
            marked_safe: crate::coro::elide::marked_callees(m, &want_elided, &elide_safe_groups),
            want_elided,
            wrappers,
            trivial,
            optnone_groups: groups_with(m, "optnone"),
            elide_safe_groups,
            header_group,
            noop: (
                crate::coro::split::unused_global_name(NOOP_FRAME.into(), &m.globals),
                crate::coro::split::unused_global_name(NOOP_FN.into(), &m.globals),
            ),
            meta_base: free_meta + if header_group.is_some() { 2 } else { 0 },
        };
        (sh, candidates)
    }
}

/// The functions a run lowers, as far as their text tells: those that use coroutine or stackless
/// intrinsics or have the presplit attribute, and kxs suspend functions (only these with
/// `Scope::Kxs`).
fn candidates(m: &Module, group_refs: &[&str], scope: Scope) -> Vec<usize> {
    m.definitions()
        .filter(|&i| {
            let t = m.item_text(i);
            let coro = t.contains("@llvm.coro.") || shape::has_presplit_attr(m.item_head(i), group_refs);
            let stackless = crate::stackless::may_contain(t);
            // One scan for the kxs names' prefix; the two names only where it is found.
            let kxs =
                t.contains(crate::kxs::PREFIX) && (t.contains(crate::kxs::MARKER) || t.contains(crate::kxs::BEGIN));
            ((coro || stackless) && scope == Scope::All) || kxs
        })
        .collect()
}

/// The two long parts of the set-up, side by side (one after the other with `serial`): the metadata
/// index, when a function to lower has debug info, and what heap elision wants.
fn survey(
    m: &Module,
    candidates: &[usize],
    group_refs: &[&str],
    opts: Options,
) -> (Option<MetaIndex>, crate::coro::elide::Wanted) {
    let any_debug = candidates.iter().any(|&i| m.item_head(i).contains("!dbg"));
    let build_meta = || any_debug.then(|| MetaIndex::build(m));
    let want = || {
        // Heap elision and guarded direct calls are made for opaque pointers only.
        if m.typed || opts.scope == Scope::Kxs {
            Default::default()
        } else {
            crate::coro::elide::wanted(m, candidates, group_refs)
        }
    };
    if opts.serial {
        return (build_meta(), want());
    }
    std::thread::scope(|s| {
        let index = s.spawn(build_meta);
        let w = want();
        // A failed thread only costs the time: the index is built again here.
        let meta = index.join().unwrap_or_else(|_| build_meta());
        (meta, w)
    })
}

/// One worker's result for one `define`.
#[derive(Default)]
struct Outcome {
    /// The printed replacement and the functions to insert after it.
    texts: Option<(String, Vec<String>)>,
    /// The function needs the module's direct-call map: redo it at the end.
    deferred: bool,
    errors: Vec<Finding>,
    warnings: Vec<Finding>,
    frame: Option<(String, FrameSummary)>,
    new_meta: Vec<String>,
    used_noop: bool,
    /// Coroutine intrinsics the function still calls (`intrinsics::kept_calls`).
    kept_intrinsics: Vec<String>,
    /// A ramp was made with the header group (`Shared::header_group`).
    used_header_group: bool,
    presplit_attr: bool,
    /// The `define` this is the outcome of.
    item: usize,
    /// Ramps whose frame this function now provides (heap elision), one per call site.
    elided: Vec<String>,
    /// What a lowered kxs suspend function needs the module to declare.
    kxs: crate::kxs::Needs,
    /// A wrapper of a ramp made an elided twin: the wrapper, the twin, and the ramp.
    wrapper: Option<(String, crate::coro::elide::Twin, String)>,
    /// A stackless function's call sites, for the frame descriptor table.
    stackless: Option<crate::stackless::table::FunctionSites>,
    /// A returned-continuation coroutine calls `llvm.stacksave` and `llvm.stackrestore`.
    stack_save: bool,
    /// Async function pointers and the context size each gives once lowered; `coro.async.size.replace`
    /// pairs (target, source).
    context_sizes: Vec<(String, u64)>,
    size_replace: Vec<(String, String)>,
}

/// Does `out` resume or destroy a handle that some call returned (so that a ramp defined in this
/// module may let it call the part directly)?
fn wants_direct_calls(out: &[Function], src: &str) -> bool {
    // `coroutine_handle<P>::resume()` and friends want to know the coroutines by promise type.
    let handle_method = |g: &Function| {
        g.name.contains("coroutine_handle")
            && g.inst_iter().any(|(_, x)| matches!(intrinsics::intr_of(g, x, src), Some(Intr::Resume | Intr::Destroy)))
    };
    out.iter().any(handle_method)
        || out.iter().any(|g| {
            g.inst_iter().any(|(_, x)| {
                matches!(intrinsics::intr_of(g, x, src), Some(Intr::Resume | Intr::Destroy))
                    && g.insts[x]
                        .call_args()
                        .first()
                        .and_then(|&h| g.value_inst(h))
                        .is_some_and(|d| matches!(g.insts[d].op, Opcode::Call | Opcode::Invoke))
            })
        })
}

/// A split coroutine without a frame header (retcon, async): its functions and report.
struct Parts {
    ramp: Function,
    continuations: Vec<Function>,
    summary: FrameSummary,
    /// The coroutine's subprogram, which each continuation gets a copy of.
    sp: Option<u32>,
}

/// What a lowering returned, or nothing when it refused the function: its errors are then the
/// outcome's.
fn lowered<T>(r: Result<T, Vec<Finding>>, oc: &mut Outcome) -> Option<T> {
    r.map_err(|es| oc.errors.extend(es)).ok()
}

/// A worker: what lowering each function it is given reads and writes besides the function. The
/// shared module, layout and options, its own type table (the module's, with the types its
/// functions add), the callee bodies it has read, and the next metadata id of its range.
struct Worker<'s, 'a> {
    sh: &'s Shared<'a>,
    types: TypeTable,
    parsed: Parsed,
    next_meta: u32,
}

impl<'s, 'a> Worker<'s, 'a> {
    fn new(sh: &'s Shared<'a>, next_meta: u32) -> Self {
        Worker { sh, types: worker_types(sh.m), parsed: Parsed::default(), next_meta }
    }

    /// Lowers the `define` at item `i`, as the lowering its body asks for. `direct` is the module's
    /// direct-call map once it is known; without it, a function that could use it is only marked
    /// `deferred`.
    fn process(&mut self, i: usize, direct: Option<&Direct>) -> Outcome {
        let sh = self.sh;
        let src = sh.m.src.as_str();
        let mut oc = Outcome { item: i, ..Outcome::default() };
        let f = match sh.m.parse_function_with(i, &mut self.types) {
            Ok(f) => f,
            Err(e) => {
                oc.errors.push(Finding { severity: Severity::Error, error: e });
                return oc;
            }
        };
        let suffix = f.header.suffix.get(src).to_string();
        oc.presplit_attr = shape::has_presplit_attr(&suffix, &sh.group_refs);
        let kxs = crate::kxs::is_suspend_function(&f, src);
        let stackless = !kxs && crate::stackless::is_stackless(&f, src);
        let retcon = !kxs && !stackless && crate::coro::retcon::shape::abi_of(&f, src).is_some();
        let is_async = !kxs && !stackless && !retcon && crate::coro::r#async::is_async(&f, src);
        // The frame engine's analyses assume valid SSA: a function LLVM's verifier rejects is refused
        // before them, as the input's fault. (Any other function llcoro changes is verified once
        // changed, and then its input too when that fails: `verify_failure`.)
        if (kxs || stackless || retcon || is_async || shape::is_presplit(&f, src, &sh.group_refs))
            && let Err(e) = llir::verify::verify_input(&f)
        {
            oc.errors.push(Finding { severity: Severity::Error, error: e });
            return oc;
        }
        if kxs {
            return self.process_kxs(f, direct, oc);
        }
        if stackless {
            return self.process_stackless(f, direct, oc);
        }
        if retcon {
            return self.process_retcon(f, direct, oc);
        }
        if is_async {
            return self.process_async(f, direct, oc);
        }
        if shape::is_presplit(&f, src, &sh.group_refs) {
            return self.process_switched(f, &suffix, direct, oc);
        }
        // Nothing of a coroutine ABI llcoro does not lower may be passed through for LLVM to choke on
        // (but what LLVM leaves too, with a warning).
        oc.warnings.extend(crate::coro::r#async::context_alloc_kept(&f, src));
        if let Some(e) = other_abi_intrinsic(&f, src) {
            oc.errors.push(e);
            return oc;
        }
        self.finish(vec![f], direct, oc)
    }

    /// A switched-resume coroutine (its header's attributes are `suffix`): simplified and given the
    /// frames of children it holds, split into its ramp and parts (`crate::coro::split`), then
    /// finished like any function.
    fn process_switched(&mut self, mut f: Function, suffix: &str, direct: Option<&Direct>, mut oc: Outcome) -> Outcome {
        let sh = self.sh;
        let (m, src) = (sh.m, sh.m.src.as_str());
        self.before_split(&mut f, suffix, direct, &mut oc);
        // The async context allocation is an ordinary call to every lowering: LLVM's passes leave
        // it in a switched-resume coroutine too.
        oc.warnings.extend(crate::coro::r#async::context_alloc_kept(&f, src));
        let (shp, findings) = shape::analyze(&f, src, &self.types, oc.presplit_attr);
        for x in findings {
            if x.severity == Severity::Error { oc.errors.push(x) } else { oc.warnings.push(x) }
        }
        let Some(shp) = shp else {
            if !oc.errors.is_empty() {
                return oc;
            }
            // Nothing to split: an ordinary function whose coroutine intrinsics are removed below.
            split::drop_presplit_attr(&mut f, src);
            return self.finish(vec![f], direct, oc);
        };
        let env = Env {
            src,
            dl: &sh.dl,
            typed: m.typed,
            dispatch: sh.opts.dispatch,
            header_group: sh.header_group.map(|g| g.group),
            globals: &m.globals,
        };
        let nsusp = shp.suspends.len() as u32;
        let sp = crate::coro::debug::header_subprogram(suffix);
        let types = &mut self.types;
        let mut prover = crate::coro::provenance::Prover::new(m, &sh.dl, &sh.names, &mut self.parsed);
        let want = sh.want_elided.contains(f.name.as_ref())
            && (sh.marked_safe.contains(f.name.as_ref())
                || crate::coro::elide::plain_allocator(&f, shp.begin, src, &mut prover, types));
        let handle_out = if want { prover.ramp(&f, shp.promise, types) } else { None };
        let promise_type = shp.promise.and_then(|p| f.value_inst(p)).and_then(|i| match f.insts[i].extra {
            llir::ir::Extra::Alloca { ty, .. } => Some(intrinsics::promise_type_name(&types.display(ty))),
            _ => None,
        });
        let Some(mut s) = lowered(split::split(f, types, shp, &env, want, handle_out.is_some()), &mut oc) else {
            return oc;
        };
        oc.warnings.append(&mut s.frame.warnings);
        if sh.opts.check_only {
            return oc;
        }
        oc.used_header_group = sh.header_group.is_some();
        let field_types = s.frame.fields.iter().map(|x| types.display(x.ty)).collect();
        let summary = FrameSummary {
            lowering: None,
            marker_ids: Vec::new(),
            frame: s.frame,
            field_types,
            returns_frame: s.returns_frame,
            resume: s.parts.first().map(|p| p.name.to_string()).unwrap_or_default(),
            destroy: s.parts.get(1).map(|p| p.name.to_string()).unwrap_or_default(),
            suspend_points: nsusp,
            elided: s
                .elided
                .as_ref()
                .map(|g| (g.name.to_string(), s.parts.get(2).map(|p| p.name.to_string()).unwrap_or_default())),
            cleanup_does_nothing: s.parts.get(2).is_some_and(|p| crate::coro::effects::does_nothing(p, src)),
            elided_in: Vec::new(),
            on_own_stack: s.on_own_stack,
            promise_type,
            handle_out,
            buffer: None,
            context: None,
        };
        oc.frame = Some((s.ramp.name.to_string(), summary));
        let mut out = vec![s.ramp];
        out.extend(s.elided);
        out.extend(self.with_own_subprograms(sp, s.parts, &mut oc));
        self.finish(out, direct, oc)
    }

    /// What a switched-resume coroutine goes through before its shape is read: calls marked safe
    /// to elide taken note of, awaiters that are always ready (or never) deciding their branches,
    /// and the frames of children it creates and destroys on every path placed in its own.
    fn before_split(&mut self, f: &mut Function, suffix: &str, direct: Option<&Direct>, oc: &mut Outcome) {
        let sh = self.sh;
        let (m, src) = (sh.m, sh.m.src.as_str());
        let text = m.item_text(oc.item).as_bytes();
        let marked = !sh.elide_safe_groups.is_empty()
            || memchr::memmem::find(text, b"coro_elide_safe").is_some()
            || memchr::memmem::find(text, b"llvm.coro.safe.elide").is_some();
        let safe = if marked {
            crate::coro::elide::take_safe_marks(f, src, &sh.elide_safe_groups)
        } else {
            FxHashSet::default()
        };
        let optnone = suffix.split_whitespace().any(|w| w == "optnone" || sh.optnone_groups.iter().any(|g| g == w));
        if !optnone {
            crate::coro::simplify::fold(f, &mut self.types, src, &sh.trivial);
        }
        let Some(d) = direct.filter(|d| !m.typed && !d.final_frames.is_empty()) else {
            return;
        };
        // Only the ramps this coroutine calls: the module may have thousands.
        let twins: FxHashMap<String, crate::coro::elide::Twin> = f
            .inst_iter()
            .filter_map(|(_, i)| f.callee_name(i, src))
            .filter(|&n| d.final_frames.contains(n) && n != f.name.as_ref())
            .filter_map(|n| d.elidable.get(n).map(|t| (n.to_string(), t.clone())))
            .collect();
        if !twins.is_empty() {
            let mut prover = crate::coro::provenance::Prover::new(m, &sh.dl, &sh.names, &mut self.parsed);
            oc.elided = crate::coro::elide::elide_calls(f, &mut self.types, src, &twins, &safe, &mut prover);
        }
    }

    /// Functions split from a coroutine whose header names subprogram `sp`: each gets its own copy
    /// of the subprogram, or no debug info at all.
    fn with_own_subprograms(&mut self, sp: Option<u32>, parts: Vec<Function>, oc: &mut Outcome) -> Vec<Function> {
        let (m, src) = (self.sh.m, self.sh.m.src.as_str());
        let tree = match (sp, self.sh.meta.as_ref()) {
            (Some(sp), Some(meta)) => meta.subprogram_tree(m, sp).map(|t| (meta, t)),
            _ => None,
        };
        let mut out = Vec::with_capacity(parts.len());
        for mut part in parts {
            match &tree {
                Some((meta, tree)) => {
                    let linkage = part.name.trim_start_matches('@').trim_matches('"').to_string();
                    let (new_sp, map, defs) = meta.clone_subprogram(m, tree, &linkage, &part, src, &mut self.next_meta);
                    crate::coro::debug::remap_function(&mut part, src, map, new_sp);
                    oc.new_meta.extend(defs);
                }
                None => split::strip_debug(&mut part),
            }
            out.push(part);
        }
        out
    }

    /// A returned-continuation coroutine (`crate::coro::retcon`): the ramp and a continuation per
    /// suspend, then finished like any function.
    fn process_retcon(&mut self, f: Function, direct: Option<&Direct>, mut oc: Outcome) -> Outcome {
        let sh = self.sh;
        let (m, src) = (sh.m, sh.m.src.as_str());
        let sig_of = |name: &str, types: &mut TypeTable| m.signature_of(name, types);
        let env = crate::coro::retcon::Env { src, dl: &sh.dl, typed: m.typed, globals: &m.globals, sig_of: &sig_of };
        let sp = crate::coro::debug::header_subprogram(f.header.suffix.get(src));
        let Some(l) = lowered(crate::coro::retcon::lower(f, &mut self.types, &env), &mut oc) else { return oc };
        if sh.opts.check_only {
            return oc;
        }
        oc.stack_save = l.uses_stack_save;
        let n = l.continuations.len() as u32;
        let mut summary = FrameSummary::of(l.abi.name(), l.frame, &self.types, n, Vec::new());
        summary.buffer = Some((l.storage_size, l.storage_align, l.inline));
        let parts = Parts { ramp: l.ramp, continuations: l.continuations, summary, sp };
        self.finish_parts(parts, direct, oc)
    }

    /// An async coroutine (`crate::coro::async`): the ramp and a continuation per suspend, then
    /// finished like any function; the module writes the context size into its async function pointer.
    fn process_async(&mut self, f: Function, direct: Option<&Direct>, mut oc: Outcome) -> Outcome {
        let sh = self.sh;
        let (m, src) = (sh.m, sh.m.src.as_str());
        let sig_of = |name: &str, types: &mut TypeTable| m.signature_of(name, types);
        let base = crate::coro::retcon::Env { src, dl: &sh.dl, typed: m.typed, globals: &m.globals, sig_of: &sig_of };
        let item = |name: &str, kind: ItemKind| {
            let want = llir::parser::module::normalize_global(name);
            m.items.iter().enumerate().find_map(|(i, it)| {
                (it.kind == kind && llir::parser::module::normalize_global(m.item_name(i)) == want).then_some(i)
            })
        };
        let global_text = |name: &str| item(name, ItemKind::Global).map(|i| m.item_text(i).to_string());
        let body_of =
            |name: &str, types: &mut TypeTable| Some(m.parse_function_with(item(name, ItemKind::Define)?, types));
        let module = crate::coro::r#async::shape::Module { sig_of: &sig_of, global_text: &global_text };
        let env = crate::coro::r#async::Env { base: &base, module, body_of: &body_of };
        let sp = crate::coro::debug::header_subprogram(f.header.suffix.get(src));
        oc.warnings.extend(crate::coro::r#async::context_alloc_kept(&f, src));
        let Some(l) = lowered(crate::coro::r#async::lower(f, &mut self.types, &env), &mut oc) else { return oc };
        if sh.opts.check_only {
            return oc;
        }
        oc.context_sizes.push((l.fn_pointer.clone(), l.context_size));
        let n = l.continuations.len() as u32;
        let mut summary = FrameSummary::of("async", l.frame, &self.types, n, Vec::new());
        summary.context = Some((l.header_size, l.frame_offset, l.context_size, l.context_align));
        let parts = Parts { ramp: l.ramp, continuations: l.continuations, summary, sp };
        self.finish_parts(parts, direct, oc)
    }

    /// `parts` reported and finished like any function.
    fn finish_parts(&mut self, parts: Parts, direct: Option<&Direct>, mut oc: Outcome) -> Outcome {
        oc.frame = Some((parts.ramp.name.to_string(), parts.summary));
        let mut out = vec![parts.ramp];
        out.extend(self.with_own_subprograms(parts.sp, parts.continuations, &mut oc));
        self.finish(out, direct, oc)
    }

    /// A kxs suspend function: lowered in place (`crate::kxs`), then finished like any function.
    fn process_kxs(&mut self, mut f: Function, direct: Option<&Direct>, mut oc: Outcome) -> Outcome {
        let sh = self.sh;
        let (m, src) = (sh.m, sh.m.src.as_str());
        if shape::is_presplit(&f, src, &sh.group_refs) {
            oc.errors.push(crate::diag::error_at(
                &f,
                None,
                "kxs-and-coro",
                "this function is both a C++20 coroutine and a kxs suspend function".into(),
                "use one kind of suspension per function: either co_await/co_yield, or the kxs macros",
            ));
            return oc;
        }
        let Some(l) = lowered(crate::kxs::lower(&mut f, &mut self.types, &sh.dl, src, m.typed), &mut oc) else {
            return oc;
        };
        oc.kxs = l.needs;
        let summary = FrameSummary::of("kxs", l.frame, &self.types, l.suspend_points, l.marker_ids);
        oc.frame = Some((f.name.to_string(), summary));
        self.finish(vec![f], direct, oc)
    }

    /// A stackless function: lowered in place (`crate::stackless`), then finished like any function.
    fn process_stackless(&mut self, mut f: Function, direct: Option<&Direct>, mut oc: Outcome) -> Outcome {
        let sh = self.sh;
        let (m, src) = (sh.m, sh.m.src.as_str());
        let callee_sig = |name: &str, types: &mut TypeTable| signature_of(m, name, types);
        let lowering = crate::stackless::lower(&mut f, &mut self.types, &sh.dl, src, m.typed, &callee_sig);
        let Some(mut l) = lowered(lowering, &mut oc) else { return oc };
        let reentry = l.reentry.take().map(|mut r| {
            // A re-entry function's name must not be one the module has.
            if m.globals.contains(&llir::parser::module::normalize_global(&r.name)) {
                r.name = crate::coro::split::new_function_name(&f.name, "reenter", &m.globals).into();
            }
            r
        });
        let sites = crate::stackless::table::FunctionSites::new(&f, &self.types, m.typed, &l, reentry.as_ref());
        oc.stackless = Some(sites);
        let summary = FrameSummary::of("stackless", l.frame, &self.types, l.sites.len() as u32, Vec::new());
        oc.frame = Some((f.name.to_string(), summary));
        let mut out = vec![f];
        out.extend(reentry);
        self.finish(out, direct, oc)
    }

    /// The rest of `process` for the functions a `define` became: callers that need the module's
    /// coroutines wait for them, heap elision, the using intrinsics, verification and printing.
    fn finish(&mut self, mut out: Vec<Function>, direct: Option<&Direct>, mut oc: Outcome) -> Outcome {
        let sh = self.sh;
        if sh.opts.check_only {
            self.check_kept_calls(&out, &mut oc);
            return oc;
        }
        let src = sh.m.src.as_str();
        let calls_ramp = || {
            !sh.want_elided.is_empty()
                && out.iter().any(|g| {
                    g.inst_iter().any(|(_, x)| {
                        g.callee_name(x, src).is_some_and(|n| sh.want_elided.contains(n) || sh.wrappers.contains(n))
                    })
                })
        };
        if direct.is_none() && (wants_direct_calls(&out, src) || calls_ramp()) {
            oc.deferred = true;
            return oc;
        }
        let empty = Direct::default();
        let direct = direct.unwrap_or(&empty);
        if let [g] = out.as_mut_slice() {
            let wrapper_fn = self.elide_into_caller(g, direct, &mut oc);
            out.extend(wrapper_fn);
        }
        let cx = self.ctx(direct);
        for g in out.iter_mut() {
            if !self.lower_uses_and_verify(g, &cx, &mut oc) {
                break;
            }
        }
        let mut texts = out.iter().map(|g| print_function(g, &self.types, src));
        let first = texts.next().unwrap_or_default();
        oc.texts = Some((first, texts.collect()));
        oc
    }

    /// Heap elision in `g`, a function that is no coroutine: the frames of the ramps it calls on
    /// its stack, and, for a wrapper of a ramp, a twin its callers may give the frame to (returned).
    fn elide_into_caller(&mut self, g: &mut Function, direct: &Direct, oc: &mut Outcome) -> Option<Function> {
        let sh = self.sh;
        let (m, src) = (sh.m, sh.m.src.as_str());
        if shape::is_presplit(g, src, &sh.group_refs) {
            return None;
        }
        let types = &mut self.types;
        let mut prover = crate::coro::provenance::Prover::new(m, &sh.dl, &sh.names, &mut self.parsed);
        oc.elided.extend(crate::coro::elide::elide_calls(
            g,
            types,
            src,
            &direct.elidable,
            &FxHashSet::default(),
            &mut prover,
        ));
        if !direct.wrapping || !sh.wrappers.contains(g.name.as_ref()) {
            return None;
        }
        let (w, twin, ramp) =
            crate::coro::elide::wrapper_twin(g, types, src, &direct.elidable, &m.globals, &mut prover)?;
        oc.wrapper = Some((g.name.to_string(), twin, ramp));
        Some(w)
    }

    /// What `lower_uses` reads: the module's, and the parts of its coroutines in `direct`.
    fn ctx<'d>(&self, direct: &'d Direct) -> Ctx<'d>
    where
        's: 'd,
    {
        let sh = self.sh;
        Ctx {
            src: sh.m.src.as_str(),
            ptr_size: sh.dl.pointer_size(0),
            noop_frame: &sh.noop.0,
            direct: &direct.parts,
            by_promise: &direct.by_promise,
            closed_promises: sh.opts.closed_promises,
            typed: sh.m.typed,
            header_group: sh.header_group,
        }
    }

    /// `llcoro check`: the warnings a lowering would give for intrinsics it keeps
    /// (`intrinsics::kept_calls`), from the using intrinsics lowered in a copy.
    fn check_kept_calls(&mut self, out: &[Function], oc: &mut Outcome) {
        let empty = Direct::default();
        let cx = self.ctx(&empty);
        for g in out {
            let mut copy = g.clone();
            intrinsics::lower_uses(&mut copy, &mut self.types, &cx);
            oc.warnings.extend(intrinsics::kept_calls(&copy, cx.src).1);
        }
    }

    /// The intrinsics that use coroutines lowered in `g`, locations given to what was created, and
    /// `g` verified. False when it fails (an error in `oc`): the rest is not worth checking.
    fn lower_uses_and_verify(&mut self, g: &mut Function, cx: &Ctx<'_>, oc: &mut Outcome) -> bool {
        let (m, src) = (self.sh.m, self.sh.m.src.as_str());
        // Only a module that declares the intrinsic has calls of it to read.
        if m.globals.contains("@llvm.coro.async.size.replace") {
            oc.size_replace.extend(crate::coro::r#async::size_replacements(g, src));
        }
        oc.used_noop |= intrinsics::lower_uses(g, &mut self.types, cx);
        let (kept, warning) = intrinsics::kept_calls(g, src);
        oc.kept_intrinsics = kept;
        oc.warnings.extend(warning);
        oc.new_meta.extend(crate::locations::locate_created(g, src, &mut self.next_meta));
        // Names llcoro invents (`%hdl`, `entry`) give way to the input's own. Only a lowering (a frame)
        // names things without asking `unique_name`.
        if oc.frame.is_some() {
            g.make_names_unique(GIVEN_NAMES);
        }
        if let Err(e) = llir::verify::verify_function(g) {
            let error = verify_failure(m, oc.item, &mut self.types, e);
            oc.errors.push(Finding { severity: Severity::Error, error });
            return false;
        }
        // Calls in Windows EH funclets keep their bundles, unless the input's did not already.
        if let Err(e) = llir::verify::verify_funclets(g, src)
            && m.parse_function_with(oc.item, &mut self.types)
                .is_ok_and(|f| llir::verify::verify_funclets(&f, src).is_ok())
        {
            oc.errors.push(Finding { severity: Severity::Error, error: crate::diag::internal(e) });
            return false;
        }
        true
    }
}

/// The signature of the module's function `name` (a `declare` or `define` header): what a
/// stackless statepoint's call is checked against.
fn signature_of(m: &Module, name: &str, types: &mut TypeTable) -> Option<llir::parser::Signature> {
    let i = m
        .items
        .iter()
        .enumerate()
        .find(|(i, it)| matches!(it.kind, ItemKind::Declare | ItemKind::Define) && m.item_name(*i) == name)?
        .0;
    let span = m.items.get(i)?.span;
    llir::parser::parse_signature(&m.src, span.start as usize, span.end as usize, types)
}

/// A verifier failure on lowered code: the input's own error when the input function fails the
/// verifier as it is (the parser leaves dominance and block structure to the verifier), else a bug
/// in llcoro. Only a failure pays for checking the input.
fn verify_failure(m: &Module, item: usize, types: &mut TypeTable, e: llir::Error) -> llir::Error {
    let input = m.parse_function_with(item, types).ok().and_then(|f| llir::verify::verify_input(&f).err());
    input.unwrap_or_else(|| crate::diag::internal(e))
}

/// An error at the first intrinsic of a returned-continuation or async coroutine in a function
/// without its `coro.id.retcon` or `coro.id.async`. (Switched-resume intrinsics outside a
/// coroutine stay, as LLVM leaves them, and so do async context allocations, with a warning.)
fn other_abi_intrinsic(g: &Function, src: &str) -> Option<Finding> {
    let i = g.inst_iter().map(|(_, i)| i).find(|&i| {
        matches!(
            intrinsics::intr_of(g, i, src),
            Some(
                Intr::EndResults
                    | Intr::SuspendRetcon
                    | Intr::AllocaAlloc
                    | Intr::AllocaGet
                    | Intr::AllocaFree
                    | Intr::SuspendAsync
                    | Intr::AsyncResume
                    | Intr::EndAsync
            )
        )
    })?;
    let name = g.callee_name(i, src).unwrap_or("?");
    Some(crate::diag::error_at(
        g,
        Some(i),
        "coro-missing-begin",
        format!(
            "{name} belongs in a returned-continuation or async coroutine, but this function calls no coro.id.retcon or coro.id.async"
        ),
        "such a coroutine starts with coro.id.retcon (or .retcon.once) or coro.id.async, and coro.begin",
    ))
}

/// The first metadata id above every numbered node of the module.
fn first_free_meta(m: &Module) -> u32 {
    m.items
        .iter()
        .filter(|it| it.kind == ItemKind::Metadata)
        .filter_map(|it| m.text(it.name).strip_prefix('!').and_then(|n| n.parse::<u32>().ok()))
        .max()
        .map_or(0, |x| x + 1)
}

/// Is item `i` a coroutine to split (as far as its text tells)?
fn is_coroutine(sh: &Shared<'_>, i: usize) -> bool {
    is_coroutine_text(sh.m, i, &sh.group_refs)
}

fn is_coroutine_text(m: &Module, i: usize, group_refs: &[&str]) -> bool {
    m.item_text(i).contains("@llvm.coro.begin") || shape::has_presplit_attr(m.item_head(i), group_refs)
}

/// The functions of `among` that the body of item `i` calls (a text scan, before parsing).
fn ramps_called<'m>(m: &'m Module, i: usize, among: &dyn Fn(&str) -> bool) -> Vec<&'m str> {
    llir::parser::module::called_globals(m.item_body(i)).filter(|name| among(name)).collect()
}

/// Lowers every coroutine and coroutine intrinsic in `m`. With `check_only`, nothing is rewritten:
/// all findings come back as errors or warnings.
pub fn lower_module(m: &mut Module, check_only: bool) -> Result<Lowered, Vec<Finding>> {
    lower_module_with(m, check_only, Dispatch::default(), Scope::All, false, false)
}

/// Which suspendable functions a run lowers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// C++20 coroutines and kxs suspend functions.
    #[default]
    All,
    /// kxs suspend functions only (`llcoro kxs`): coroutines and their intrinsics stay as they are.
    Kxs,
}

/// `lower_module`, with `.resume` dispatching as `dispatch` says, lowering what `scope` says. With
/// `serial`, the chunks of functions are lowered one after the other on the calling thread instead of
/// on a thread each; the output is the same. With `closed_promises`, no other module makes
/// coroutines with this module's promise types (`--closed-promises`).
pub fn lower_module_with(
    m: &mut Module,
    check_only: bool,
    dispatch: Dispatch,
    scope: Scope,
    serial: bool,
    closed_promises: bool,
) -> Result<Lowered, Vec<Finding>> {
    let opts = Options { check_only, dispatch, scope, serial, closed_promises };
    let groups = presplit_groups(m);
    let m: &Module = m;
    // Collect: which functions to lower, and what every worker reads.
    let group_refs: Vec<&str> = groups.iter().map(|(_, n)| n.as_str()).collect();
    let found = candidates(m, &group_refs, scope);
    let (sh, found) = Shared::new(m, group_refs, found, opts);
    // Lower them on all cores; a function that needs the module's coroutines known waits.
    let mut acc = Merged::default();
    let waiting = acc.first_pass(&sh, &found);
    // Order by awaiting, lower in rounds: waiting coroutines first, callees before callers, since a
    // coroutine may hold an awaited child's frame in its own and needs the child's final size.
    let mut direct = Direct::from_frames(&acc.frames, m.typed);
    let mut rounds = Rounds::new(&sh);
    let (coros, callers): (Vec<usize>, Vec<usize>) = waiting.into_iter().partition(|&i| is_coroutine(&sh, i));
    rounds.coroutines(coros, &mut direct, &mut acc);
    // Direct calls and twins: wrappers of ramps before their callers, which may then hold the frame
    // of a coroutine a wrapper makes; then every other caller.
    direct.by_promise = by_promise(&acc.frames, m.typed);
    let (wrapping, callers): (Vec<usize>, Vec<usize>) =
        callers.into_iter().partition(|&i| sh.wrappers.contains(m.item_name(i)));
    rounds.wrappers(&wrapping, &mut direct, &mut acc);
    rounds.callers(&callers, &direct, &mut acc);
    // Verify what the rounds add up to.
    acc.order_reports(m);
    acc.check_metadata(sh.meta_base);
    if !acc.errors.is_empty() {
        acc.errors.sort_by_key(|f| f.error.span.start);
        return Err(acc.errors);
    }
    if !check_only {
        module_edits(&sh, &groups, &mut acc);
    }
    Ok(Lowered { edits: acc.edits, warnings: acc.warnings, frames: acc.frames })
}

/// The size of item `i`'s text: what a chunk of work is measured in.
fn item_size(m: &Module, i: usize) -> usize {
    m.items.get(i).map_or(0, |it| (it.span.end - it.span.start) as usize)
}

/// `work` on each piece of items, on a thread each (one after the other on this thread with
/// `serial`); the results in the pieces' order.
fn on_threads<W>(pieces: &[Vec<usize>], serial: bool, work: W) -> Vec<(usize, Outcome)>
where
    W: Fn(usize, &[usize]) -> Vec<(usize, Outcome)> + Sync,
{
    if serial {
        return pieces.iter().enumerate().flat_map(|(k, piece)| work(k, piece)).collect();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = pieces
            .iter()
            .enumerate()
            .map(|(k, piece)| {
                let work = &work;
                s.spawn(move || work(k, piece))
            })
            .collect();
        handles.into_iter().flat_map(|h| joined(h.join())).collect()
    })
}

/// Everything the workers' outcomes add up to, merged in the order they come.
#[derive(Default)]
struct Merged {
    edits: Edits,
    errors: Vec<Finding>,
    warnings: Vec<Finding>,
    frames: Vec<(String, FrameSummary)>,
    new_meta: Vec<String>,
    used_noop: bool,
    /// Coroutine intrinsics some function still calls: their declarations stay.
    kept_intrinsics: FxHashSet<String>,
    used_header_group: bool,
    kxs_needs: crate::kxs::Needs,
    stack_save: bool,
    /// Async function pointers with their contexts' sizes; `coro.async.size.replace` pairs.
    context_sizes: Vec<(String, u64)>,
    size_replace: Vec<(String, String)>,
    tables: Vec<crate::stackless::table::FunctionSites>,
    /// A ramp and a caller that now provides its frame, per call site.
    elided_at: Vec<(String, String)>,
}

impl Merged {
    /// Lowers `items` in a fixed number of contiguous chunks of about equal text size, each on a
    /// thread of its own (new metadata ids depend on the chunk, so the output is the same on every
    /// machine), and merges what is done. Returns the functions that wait for the module's
    /// coroutines; the frames some of them made are recorded.
    fn first_pass(&mut self, sh: &Shared<'_>, items: &[usize]) -> Vec<usize> {
        let chunks = chunked(items, CHUNKS, &|i| item_size(sh.m, i));
        let results = on_threads(&chunks, sh.opts.serial, |k, chunk| {
            let mut w = Worker::new(sh, sh.meta_base + k as u32 * META_RANGE);
            chunk
                .iter()
                .map(|&i| {
                    // A coroutine that creates others waits for them (it may hold their frames):
                    // lowering it now would be thrown away.
                    if !sh.opts.check_only
                        && is_coroutine(sh, i)
                        && !ramps_called(sh.m, i, &|n| sh.want_elided.contains(n)).is_empty()
                    {
                        return (i, Outcome { deferred: true, ..Outcome::default() });
                    }
                    (i, w.process(i, None))
                })
                .collect()
        });
        let mut waiting = Vec::new();
        for (i, oc) in results {
            if oc.deferred {
                if let Some(fr) = oc.frame {
                    self.frames.push(fr);
                }
                waiting.push(i);
                continue;
            }
            self.merge(sh, i, oc);
        }
        waiting
    }

    /// Adds the outcome of lowering item `i`.
    fn merge(&mut self, sh: &Shared<'_>, i: usize, oc: Outcome) {
        let caller = sh.m.item_name(i).to_string();
        self.elided_at.extend(oc.elided.into_iter().map(|r| (r, caller.clone())));
        self.errors.extend(oc.errors);
        self.warnings.extend(oc.warnings);
        self.new_meta.extend(oc.new_meta);
        self.used_noop |= oc.used_noop;
        self.kept_intrinsics.extend(oc.kept_intrinsics);
        self.used_header_group |= oc.used_header_group;
        self.kxs_needs.malloc |= oc.kxs.malloc;
        self.kxs_needs.aligned_alloc |= oc.kxs.aligned_alloc;
        self.kxs_needs.free |= oc.kxs.free;
        self.kxs_needs.suspended |= oc.kxs.suspended;
        self.stack_save |= oc.stack_save;
        self.context_sizes.extend(oc.context_sizes);
        self.size_replace.extend(oc.size_replace);
        self.tables.extend(oc.stackless);
        if let Some(fr) = oc.frame {
            self.frames.push(fr);
        }
        if oc.presplit_attr && !sh.opts.check_only {
            self.edits.gap_replace.insert(i, vec![(" presplitcoroutine".into(), String::new())]);
        }
        if let Some((first, rest)) = oc.texts {
            self.edits.replace.insert(i, first);
            if !rest.is_empty() {
                self.edits.insert_after.insert(i, rest);
            }
        }
    }

    /// Reports in the order of the module, whichever round lowered each, with the callers that
    /// hold each frame.
    fn order_reports(&mut self, m: &Module) {
        let order: FxHashMap<&str, usize> = m.definitions().map(|i| (m.item_name(i), i)).collect();
        self.frames.sort_by_key(|(n, _)| order.get(n.as_str()).copied().unwrap_or(usize::MAX));
        for (ramp, caller) in std::mem::take(&mut self.elided_at) {
            if let Some((_, s)) = self.frames.iter_mut().find(|(n, _)| *n == ramp) {
                s.elided_in.push(caller);
            }
        }
    }

    /// Workers number new metadata in ranges of their own; a module that needs more than a range
    /// holds is refused rather than written with two nodes of one number.
    fn check_metadata(&mut self, meta_base: u32) {
        let Some(id) = metadata_clash(&self.new_meta, meta_base) else {
            return;
        };
        let msg =
            format!("internal error: llcoro numbered two new metadata nodes !{id} (debug info of the split functions)");
        self.errors.push(Finding {
            severity: Severity::Error,
            error: llir::Error::new("internal", llir::Span::default(), msg).help(
                "this is a limit of llcoro, not a fault in the input; please report it. The same code \
                 compiled without `-g` avoids it",
            ),
        });
    }
}

/// The rounds that redo the functions which waited for the module's coroutines. Each runs on
/// CHUNKS threads like the first pass, with metadata ranges of its own; past the last range that
/// fits, or for a single function, on one worker with the range after the first pass's.
struct Rounds<'s, 'a> {
    sh: &'s Shared<'a>,
    late: Worker<'s, 'a>,
    round: u64,
}

impl<'s, 'a> Rounds<'s, 'a> {
    fn new(sh: &'s Shared<'a>) -> Self {
        Rounds { sh, late: Worker::new(sh, sh.meta_base + CHUNKS as u32 * META_RANGE), round: 0 }
    }

    /// Lowers `items` with the module's coroutines known as `direct` says.
    fn run(&mut self, items: &[usize], direct: &Direct) -> Vec<(usize, Outcome)> {
        let sh = self.sh;
        let rounds_base = u64::from(sh.meta_base) + (CHUNKS as u64 + 1) * u64::from(META_RANGE);
        let first = rounds_base + self.round * CHUNKS as u64 * u64::from(ROUND_RANGE);
        self.round += 1;
        let fits = first + CHUNKS as u64 * u64::from(ROUND_RANGE) <= u64::from(u32::MAX);
        if !fits || items.len() < 2 {
            return items.iter().map(|&i| (i, self.late.process(i, Some(direct)))).collect();
        }
        let pieces = chunked(items, CHUNKS, &|i| item_size(sh.m, i));
        on_threads(&pieces, sh.opts.serial, |k, piece| {
            let mut w = Worker::new(sh, (first + k as u64 * u64::from(ROUND_RANGE)) as u32);
            piece.iter().map(|&i| (i, w.process(i, Some(direct)))).collect()
        })
    }

    /// The waiting coroutines, in batches whose awaited children are done: each frame made now may
    /// hold a child's, and is final (a worker of the first pass may have recorded an earlier one).
    fn coroutines(&mut self, mut coros: Vec<usize>, direct: &mut Direct, acc: &mut Merged) {
        let m = self.sh.m;
        let redone: FxHashSet<&str> = coros.iter().map(|&i| m.item_name(i)).collect();
        direct.final_frames = direct.elidable.keys().filter(|n| !redone.contains(n.as_str())).cloned().collect();
        let mut frame_at: FxHashMap<String, usize> =
            acc.frames.iter().enumerate().map(|(k, (n, _))| (n.clone(), k)).collect();
        while !coros.is_empty() {
            let batch = ready_batch(m, &mut coros, &redone, &direct.final_frames);
            for (i, mut oc) in self.run(&batch, direct) {
                if let Some((name, fr)) = oc.frame.take() {
                    direct.register(&name, &fr);
                    direct.final_frames.insert(name.clone());
                    match frame_at.get(&name).and_then(|&k| acc.frames.get_mut(k)) {
                        Some(slot) => slot.1 = fr,
                        None => {
                            frame_at.insert(name.clone(), acc.frames.len());
                            acc.frames.push((name, fr));
                        }
                    }
                }
                acc.merge(self.sh, i, oc);
            }
        }
    }

    /// Wrappers of ramps: each may get a twin that its callers can give the frame to.
    fn wrappers(&mut self, wrapping: &[usize], direct: &mut Direct, acc: &mut Merged) {
        direct.wrapping = true;
        for (i, mut oc) in self.run(wrapping, direct) {
            oc.frame = None;
            if let Some((wrapper, twin, ramp)) = oc.wrapper.take() {
                direct.elidable.insert(wrapper.clone(), twin);
                direct.wrapped.insert(wrapper, ramp);
            }
            acc.merge(self.sh, i, oc);
        }
        direct.wrapping = false;
    }

    /// The other callers: direct calls to parts, and frames on their stack.
    fn callers(&mut self, callers: &[usize], direct: &Direct, acc: &mut Merged) {
        for (i, mut oc) in self.run(callers, direct) {
            // The frame of a coroutine redone here was already recorded by its worker.
            oc.frame = None;
            // A frame held through a wrapper is the wrapped ramp's.
            for e in oc.elided.iter_mut() {
                if let Some(r) = direct.wrapped.get(e.as_str()) {
                    *e = r.clone();
                }
            }
            acc.merge(self.sh, i, oc);
        }
    }
}

/// The coroutines of `coros` to redo next, taken out of it: those whose redone children all have
/// final frames. In a cycle (coroutines awaiting each other) none is ready: the first one in the
/// module goes alone, holding only final frames, and its frame is final for the others.
fn ready_batch(
    m: &Module,
    coros: &mut Vec<usize>,
    redone: &FxHashSet<&str>,
    final_frames: &FxHashSet<String>,
) -> Vec<usize> {
    let ready: Vec<usize> = coros
        .iter()
        .copied()
        .filter(|&i| {
            ramps_called(m, i, &|n| redone.contains(n)).iter().all(|&n| final_frames.contains(n) || n == m.item_name(i))
        })
        .collect();
    let batch: Vec<usize> = if ready.is_empty() { coros.first().copied().into_iter().collect() } else { ready };
    let in_batch: FxHashSet<usize> = batch.iter().copied().collect();
    coros.retain(|i| !in_batch.contains(i));
    batch
}

/// The module-level edits of a run: declarations the lowered code needs and the frame descriptor
/// table; unless only kxs is lowered, the coroutine intrinsics' declarations and the presplit
/// attribute removed, and the definitions the lowered code uses appended.
fn module_edits(sh: &Shared<'_>, groups: &[(usize, String)], acc: &mut Merged) {
    let m = sh.m;
    let edits = &mut acc.edits;
    add_kxs_declarations(m, edits, acc.kxs_needs);
    if acc.stack_save {
        add_stack_save_declarations(m, edits);
    }
    crate::coro::r#async::context_size_edits(m, edits, &acc.context_sizes, &acc.size_replace);
    crate::stackless::table::emit(m, edits, &acc.tables);
    if sh.opts.scope == Scope::Kxs {
        return;
    }
    remove_presplit(m, edits, groups, &acc.kept_intrinsics);
    if acc.used_noop {
        edits.append.push(intrinsics::noop_definitions(&sh.noop.0, &sh.noop.1, m.typed));
    }
    if let Some(g) = sh.header_group.filter(|_| acc.used_header_group) {
        let declared = m
            .items
            .iter()
            .enumerate()
            .any(|(i, it)| it.kind == ItemKind::Declare && m.item_name(i) == intrinsics::LAUNDER);
        edits.append.push(g.definitions(!declared));
    }
    if !acc.new_meta.is_empty() {
        edits.append.push(acc.new_meta.join("\n"));
    }
}

/// Declarations of coroutine and frame intrinsics go (no use is left but of the async context
/// allocation, which LLVM leaves: `coro::async::context_alloc_kept`, and of the intrinsics in
/// `kept`: `intrinsics::kept_calls`); attribute groups lose the presplit attribute, and a group
/// left empty, invalid IR to every LLVM, goes with every reference to it.
fn remove_presplit(m: &Module, edits: &mut Edits, groups: &[(usize, String)], kept: &FxHashSet<String>) {
    for (i, it) in m.items.iter().enumerate() {
        let name = m.text(it.name);
        let kept = matches!(name, "@llvm.coro.async.context.alloc" | "@llvm.coro.async.context.dealloc")
            || kept.contains(name);
        if it.kind == ItemKind::Declare
            && !kept
            && (name.starts_with("@llvm.coro.") || crate::stackless::may_contain(name))
        {
            edits.remove.insert(i);
        }
    }
    let mut dropped: Vec<&str> = Vec::new();
    for (i, name) in groups {
        let t = m.item_text(*i);
        let cleaned = shape::without_spans(t, &shape::presplit_attr_spans(t));
        if llir::verify::attr_group_is_empty(&cleaned) {
            edits.remove.insert(*i);
            dropped.push(name.as_str());
        } else {
            edits.replace.insert(*i, cleaned);
        }
    }
    if !dropped.is_empty() {
        drop_group_refs(m, edits, &dropped);
    }
}

/// A worker's results. A worker that panicked gives an internal error instead, which refuses the
/// run: its functions would otherwise be written neither lowered nor as they were.
fn joined(r: std::thread::Result<Vec<(usize, Outcome)>>) -> Vec<(usize, Outcome)> {
    r.unwrap_or_else(|_| {
        let error = crate::diag::worker_panicked();
        vec![(0, Outcome { errors: vec![Finding { severity: Severity::Error, error }], ..Outcome::default() })]
    })
}

/// A number that two of the new metadata definitions `defs` (`!N = ...`) share, or one below `base`
/// (the module's own and the header group's).
fn metadata_clash(defs: &[String], base: u32) -> Option<u32> {
    let mut seen: FxHashSet<u32> = FxHashSet::default();
    defs.iter()
        .filter_map(|d| {
            let digits = d.strip_prefix('!')?;
            let end = digits.bytes().position(|c| !c.is_ascii_digit()).unwrap_or(digits.len());
            digits.get(..end)?.parse::<u32>().ok()
        })
        .find(|&id| id < base || !seen.insert(id))
}

/// Declarations a lowered kxs suspend function uses that the module lacks: `malloc` (or
/// `aligned_alloc`, for an over-aligned frame) and `free` for its spill frame, and the object whose
/// address means COROUTINE_SUSPENDED.
fn add_kxs_declarations(m: &Module, edits: &mut Edits, needs: crate::kxs::Needs) {
    let declared =
        |name: &str| m.items.iter().enumerate().any(|(i, it)| it.kind != ItemKind::AttrGroup && m.item_name(i) == name);
    let mut decls: Vec<String> = Vec::new();
    let ptr = if m.typed { "i8*" } else { "ptr" };
    if needs.malloc && !declared("@malloc") {
        decls.push(format!("declare {ptr} @malloc(i64)"));
    }
    if needs.aligned_alloc && !declared("@aligned_alloc") {
        decls.push(format!("declare {ptr} @aligned_alloc(i64, i64)"));
    }
    if needs.free && !declared("@free") {
        decls.push(format!("declare void @free({ptr})"));
    }
    if needs.suspended && !declared(crate::kxs::SUSPENDED) {
        decls.push(format!("{} = external global i8", crate::kxs::SUSPENDED));
    }
    if !decls.is_empty() {
        edits.append.push(decls.join("\n"));
    }
}

/// `llvm.stacksave` and `llvm.stackrestore`, for the dynamic allocas of returned-continuation
/// coroutines, when the module does not declare them.
fn add_stack_save_declarations(m: &Module, edits: &mut Edits) {
    let declared =
        |name: &str| m.items.iter().enumerate().any(|(i, it)| it.kind == ItemKind::Declare && m.item_name(i) == name);
    let ptr = if m.typed { "i8*" } else { "ptr" };
    let mut decls: Vec<String> = Vec::new();
    if !declared("@llvm.stacksave") {
        decls.push(format!("declare {ptr} @llvm.stacksave()"));
    }
    if !declared("@llvm.stackrestore") {
        decls.push(format!("declare void @llvm.stackrestore({ptr})"));
    }
    if !decls.is_empty() {
        edits.append.push(decls.join("\n"));
    }
}

/// Removes every reference to the attribute groups `dropped` (`#N` after a function header, a
/// declaration, a call or a global) from the module's items and from the text lowering produced.
fn drop_group_refs(m: &Module, edits: &mut Edits, dropped: &[&str]) {
    let strip = |text: &str| -> Option<String> {
        let mut lx = llir::lexer::Lexer::new(text, 0, text.len());
        let mut cuts: Vec<(usize, usize)> = Vec::new();
        loop {
            let tk = lx.next_token();
            match tk.kind {
                llir::lexer::Tok::Eof => break,
                llir::lexer::Tok::Hash if dropped.contains(&&text[tk.start as usize..tk.end as usize]) => {
                    let mut from = tk.start as usize;
                    while from > 0 && text.as_bytes()[from - 1] == b' ' {
                        from -= 1;
                    }
                    cuts.push((from, tk.end as usize));
                }
                _ => {}
            }
        }
        if cuts.is_empty() {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (a, b) in cuts {
            out.push_str(&text[at..a]);
            // Keep one space where the reference sat between two words.
            if text[b..].starts_with(|c: char| !c.is_whitespace() && c != ',' && c != ')') && !out.ends_with(' ') {
                out.push(' ');
            }
            at = b;
        }
        out.push_str(&text[at..]);
        Some(out)
    };
    let quick = |t: &str| dropped.iter().any(|d| t.contains(d));
    for (i, it) in m.items.iter().enumerate() {
        if !matches!(it.kind, ItemKind::Define | ItemKind::Declare | ItemKind::Global) || edits.remove.contains(&i) {
            continue;
        }
        let current = edits.replace.get(&i).map_or_else(|| m.item_text(i), |s| s.as_str());
        if quick(current)
            && let Some(new) = strip(current)
        {
            edits.replace.insert(i, new);
        }
    }
    for texts in edits.insert_after.values_mut() {
        for t in texts.iter_mut() {
            if quick(t)
                && let Some(new) = strip(t)
            {
                *t = new;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_worker_that_panics_refuses_the_run() {
        let ok = std::thread::spawn(|| vec![(3, Outcome::default())]).join();
        assert_eq!(joined(ok).len(), 1);
        // (The test prints the panic's message.)
        let failed = std::thread::spawn(|| -> Vec<(usize, Outcome)> { panic!("a worker's bug") }).join();
        let got = joined(failed);
        assert!(got.iter().any(|(_, oc)| oc.errors.iter().any(|f| f.error.code == "internal")));
    }

    #[test]
    fn new_metadata_numbers_must_not_clash() {
        let defs =
            |ids: &[u32]| ids.iter().map(|i| format!("!{i} = !DILocation(line: 1, scope: !{i})")).collect::<Vec<_>>();
        assert_eq!(metadata_clash(&defs(&[10, 11, 12]), 10), None);
        assert_eq!(metadata_clash(&defs(&[10, 11, 10]), 10), Some(10));
        // A number that wrapped around into the module's own.
        assert_eq!(metadata_clash(&defs(&[10, 3]), 10), Some(3));
    }

    #[test]
    fn a_group_left_empty_goes_with_every_reference_to_it() {
        let src = "define ptr @f() #0 {\n  %h = call ptr @g() #0\n  %s = call ptr @k(ptr %h) #1\n  ret ptr %s\n}\n\ndeclare ptr @g() #0\ndeclare ptr @k(ptr) #1\n\nattributes #0 = { presplitcoroutine }\nattributes #1 = { nounwind }\nattributes #10 = { cold }\n";
        let m = Module::parse(src.to_string()).unwrap_or_else(|(e, _)| panic!("{}", e.message));
        let mut edits = Edits::default();
        let g0 = m.items.iter().position(|it| m.text(it.name) == "#0").expect("group #0");
        edits.remove.insert(g0);
        drop_group_refs(&m, &mut edits, &["#0"]);
        let out = llir::print::print_module(&m, &edits);
        assert!(!out.contains("#0"), "{out}");
        assert!(out.contains("define ptr @f() {"), "{out}");
        assert!(out.contains("%h = call ptr @g()\n"), "{out}");
        assert!(out.contains("declare ptr @g()\n"), "{out}");
        assert!(out.contains("call ptr @k(ptr %h) #1"), "#1 stays: {out}");
        assert!(out.contains("attributes #10 = { cold }"), "#10 is another group: {out}");
        assert!(llir::verify::verify_edits(&m, &edits).is_ok());
    }
}
