//! The SSA IR of one parsed function.
//!
//! `Value`, `Inst` and `Block` are dense ids into the function's tables (`PrimaryMap`s). An instruction
//! keeps its operands as ids (`args` for values, `blocks` for block operands) and its syntax as a
//! *template*: the original source text cut around every operand. Printing walks the template and
//! substitutes operand names, so flags, attributes and metadata the IR does not interpret are carried
//! verbatim, while operands can be replaced, renamed and renumbered freely. Instructions a pass creates
//! get templates of owned text from the builder in `edit`.

pub mod build;
pub mod edit;

use crate::error::Span;
use crate::types::Type;
use cranelift_entity::{PrimaryMap, entity_impl};
use smallvec::SmallVec;
use std::sync::Arc;

/// An SSA value: a parameter, an instruction result or a constant operand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(u32);
entity_impl!(Value, "v");

/// An instruction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Inst(u32);
entity_impl!(Inst, "inst");

/// A basic block.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Block(u32);
entity_impl!(Block, "block");

/// Text that is either a range of the module source or owned by the IR. Owned text is behind a
/// thin pointer so that a `Text`, and a template `Piece`, take 16 bytes instead of 24: there is one
/// per operand gap of every instruction, and passes own only the text they write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Text {
    /// The bytes `start..end` of the module text the function was parsed from.
    Src(u32, u32),
    /// Text a pass wrote (see [`Text::own`]).
    Own(Box<Box<str>>),
}

impl Text {
    /// The text itself; `src` is the module text a `Src` range points into.
    pub fn get<'a>(&'a self, src: &'a str) -> &'a str {
        match self {
            Text::Src(a, b) => src.get(*a as usize..*b as usize).unwrap_or(""),
            Text::Own(s) => s,
        }
    }
    /// Owned text, for what a pass writes.
    pub fn own(s: impl Into<Box<str>>) -> Self {
        Text::Own(Box::new(s.into()))
    }
    /// True when the text has no bytes.
    pub fn is_empty(&self) -> bool {
        match self {
            Text::Src(a, b) => a == b,
            Text::Own(s) => s.is_empty(),
        }
    }
}

/// One piece of an instruction template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// Text printed as it is: keywords, types, flags, attributes, attachments.
    Text(Text),
    /// The name of `args[i]`.
    Arg(u16),
    /// `%name` of `blocks[i]`.
    Block(u16),
}

/// Room for `n` entries and an eighth more. Arenas are sized once, from the input or the function
/// copied, and passes then add to them; an arena that fills up exactly doubles (copying it all).
pub fn with_headroom(n: usize) -> usize {
    n + n / 8
}

/// The name of a value or block. Most names are short (`retval`, `coro.frame`, `j12`) and are kept
/// inline, without an allocation each; a long one is shared with clones of the function.
pub type Name = smol_str::SmolStr;

/// An instruction's template. A function and its clones (a coroutine's split parts) share each one:
/// they differ in operands and rarely in text, and a template is copied only when it changes.
pub type Template = Arc<[Piece]>;

/// One piece of a constant: text, or a reference to a block of this function (`blockaddress`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstPiece {
    /// Text printed as it is.
    Text(Text),
    /// The label of a block of this function (`%bb`), as the function names it when printed.
    Block(Block),
    /// The name of the function the constant is in (the `@f` of `blockaddress(@f, %bb)`), which a
    /// copy of the body under another name must spell as its own.
    Func,
}

/// What a value is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// The i-th parameter.
    Param(u32),
    /// The result of an instruction.
    Inst(Inst),
    /// A constant operand, printed as spelled.
    Const(Text),
    /// A constant that names blocks of this function (`blockaddress(@f, %b)`, perhaps inside a
    /// constant expression), printed from its pieces. Boxed twice so that the common kinds stay small.
    BlockConst(Box<Box<[ConstPiece]>>),
    /// Referenced but not (yet) defined; only exists while parsing.
    Forward,
}

/// A value's entry in [`Function::values`].
#[derive(Clone, Debug)]
pub struct ValueData {
    /// The value's type.
    pub ty: Type,
    /// Parameter, instruction result or constant.
    pub kind: ValueKind,
    /// Source spelling without the sigil (`x`, `"a b"`); `None` for numbered values.
    pub name: Option<Name>,
}

/// An instruction's opcode. Each variant is the LLVM instruction of the same keyword (`Ret` is `ret`,
/// `GetElementPtr` is `getelementptr`, `VAArg` is `va_arg`), but `DbgRecord`.
#[allow(missing_docs)] // The variants are LangRef's instructions; the names say which.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Opcode {
    // Terminators.
    Ret,
    Br,
    Switch,
    IndirectBr,
    Invoke,
    CallBr,
    Resume,
    CatchSwitch,
    CatchRet,
    CleanupRet,
    Unreachable,
    // Unary and binary.
    FNeg,
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
    // Vectors and aggregates.
    ExtractElement,
    InsertElement,
    ShuffleVector,
    ExtractValue,
    InsertValue,
    // Memory.
    Alloca,
    Load,
    Store,
    Fence,
    CmpXchg,
    AtomicRmw,
    GetElementPtr,
    // Casts.
    Trunc,
    ZExt,
    SExt,
    FPTrunc,
    FPExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    PtrToInt,
    PtrToAddr,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
    // Other.
    ICmp,
    FCmp,
    Phi,
    Select,
    Freeze,
    Call,
    VAArg,
    LandingPad,
    CatchPad,
    CleanupPad,
    /// A `#dbg_value(...)`-style debug record line (LLVM 19+).
    DbgRecord,
}

impl Opcode {
    /// The opcode of an instruction keyword (`"getelementptr"`); `None` for anything else.
    pub fn from_keyword(s: &str) -> Option<Opcode> {
        use Opcode::*;
        Some(match s {
            "ret" => Ret,
            "br" => Br,
            "switch" => Switch,
            "indirectbr" => IndirectBr,
            "invoke" => Invoke,
            "callbr" => CallBr,
            "resume" => Resume,
            "catchswitch" => CatchSwitch,
            "catchret" => CatchRet,
            "cleanupret" => CleanupRet,
            "unreachable" => Unreachable,
            "fneg" => FNeg,
            "add" => Add,
            "sub" => Sub,
            "mul" => Mul,
            "udiv" => UDiv,
            "sdiv" => SDiv,
            "urem" => URem,
            "srem" => SRem,
            "shl" => Shl,
            "lshr" => LShr,
            "ashr" => AShr,
            "and" => And,
            "or" => Or,
            "xor" => Xor,
            "fadd" => FAdd,
            "fsub" => FSub,
            "fmul" => FMul,
            "fdiv" => FDiv,
            "frem" => FRem,
            "extractelement" => ExtractElement,
            "insertelement" => InsertElement,
            "shufflevector" => ShuffleVector,
            "extractvalue" => ExtractValue,
            "insertvalue" => InsertValue,
            "alloca" => Alloca,
            "load" => Load,
            "store" => Store,
            "fence" => Fence,
            "cmpxchg" => CmpXchg,
            "atomicrmw" => AtomicRmw,
            "getelementptr" => GetElementPtr,
            "trunc" => Trunc,
            "zext" => ZExt,
            "sext" => SExt,
            "fptrunc" => FPTrunc,
            "fpext" => FPExt,
            "fptoui" => FPToUI,
            "fptosi" => FPToSI,
            "uitofp" => UIToFP,
            "sitofp" => SIToFP,
            "ptrtoint" => PtrToInt,
            "ptrtoaddr" => PtrToAddr,
            "inttoptr" => IntToPtr,
            "bitcast" => BitCast,
            "addrspacecast" => AddrSpaceCast,
            "icmp" => ICmp,
            "fcmp" => FCmp,
            "phi" => Phi,
            "select" => Select,
            "freeze" => Freeze,
            "call" => Call,
            "va_arg" => VAArg,
            "landingpad" => LandingPad,
            "catchpad" => CatchPad,
            "cleanuppad" => CleanupPad,
            _ => return None,
        })
    }

    /// Ends a block: `ret`, `br`, `switch`, `invoke`, `unreachable` and the like.
    pub fn is_terminator(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Ret | Br
                | Switch
                | IndirectBr
                | Invoke
                | CallBr
                | Resume
                | CatchSwitch
                | CatchRet
                | CleanupRet
                | Unreachable
        )
    }

    /// A two-operand arithmetic or bitwise instruction (`add` to `xor`, `fadd` to `frem`).
    pub fn is_binary(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Add | Sub
                | Mul
                | UDiv
                | SDiv
                | URem
                | SRem
                | Shl
                | LShr
                | AShr
                | And
                | Or
                | Xor
                | FAdd
                | FSub
                | FMul
                | FDiv
                | FRem
        )
    }

    /// A conversion instruction (`trunc` to `addrspacecast`).
    pub fn is_cast(self) -> bool {
        use Opcode::*;
        matches!(
            self,
            Trunc
                | ZExt
                | SExt
                | FPTrunc
                | FPExt
                | FPToUI
                | FPToSI
                | UIToFP
                | SIToFP
                | PtrToInt
                | PtrToAddr
                | IntToPtr
                | BitCast
                | AddrSpaceCast
        )
    }

    /// Pads must stay first in their block, like phis.
    pub fn is_pad(self) -> bool {
        matches!(self, Opcode::LandingPad | Opcode::CatchPad | Opcode::CleanupPad | Opcode::CatchSwitch)
    }
}

/// An `icmp` or `fcmp` predicate word, kept as a small index so that `Extra` stays small.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pred(u8);

/// Every predicate word of both comparisons (`ugt` and the like are shared); the empty word stands
/// for a predicate the parser did not recognise.
const PREDICATES: [&str; 23] = [
    "", "eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle", "false", "oeq", "ogt", "oge", "olt", "ole",
    "one", "ord", "ueq", "une", "uno", "true",
];

impl Pred {
    /// The predicate spelled `word`; an unknown word gives the empty predicate.
    pub fn from_word(word: &str) -> Pred {
        Pred(PREDICATES.iter().position(|&p| p == word).unwrap_or(0) as u8)
    }

    /// The predicate's word (`"slt"`); empty for one the parser did not recognise.
    pub fn as_str(self) -> &'static str {
        PREDICATES.get(self.0 as usize).copied().unwrap_or("")
    }
}

/// Opcode-specific facts the parser records so passes need not re-read the template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Extra {
    /// Nothing beyond the opcode and operands.
    None,
    /// `call`/`invoke`/`callbr`: `args[..nargs]` are the call arguments, `args[callee]` the callee, and
    /// the rest are operand-bundle operands.
    Call {
        /// Index of the callee in `args`.
        callee: u16,
        /// How many of `args` are call arguments.
        nargs: u16,
        /// The called function's type.
        fn_ty: Type,
    },
    /// `alloca`: what it allocates, and its alignment if spelled.
    Alloca {
        /// The allocated type.
        ty: Type,
        /// `align N`, if written.
        align: Option<u32>,
    },
    /// `load`/`store` alignment.
    Access {
        /// `align N`, if written.
        align: Option<u32>,
    },
    /// `getelementptr`: the type its indices step through.
    Gep {
        /// The source element type (`getelementptr T, ptr %p, ...`).
        source: Type,
    },
    /// `icmp`/`fcmp` predicate.
    Cmp {
        /// The comparison's predicate.
        pred: Pred,
    },
    /// Phi printing is structural: the template's pieces but the last are the head (`phi i32 `),
    /// then come the `[ v, %b ]` pairs, then the last piece, the tail (attachments, often empty).
    Phi,
    /// `llvm.dbg.*` calls and `#dbg_*` records: their operands are debug uses only.
    Debug,
}

/// An instruction's entry in [`Function::insts`]: opcode, operands and template.
#[derive(Clone, Debug)]
pub struct InstData {
    /// What the instruction does.
    pub op: Opcode,
    /// The result type (`void` when there is no result).
    pub ty: Type,
    /// The value the instruction defines, if it has a result.
    pub result: Option<Value>,
    /// Value operands, in the order the template's `Piece::Arg`s name them.
    pub args: SmallVec<[Value; 3]>,
    /// Block operands (branch targets, phi predecessors), in the order `Piece::Block`s name them.
    pub blocks: SmallVec<[Block; 2]>,
    /// The instruction's syntax: source text cut around each operand.
    pub tmpl: Template,
    /// Opcode-specific facts the parser recorded.
    pub extra: Extra,
    /// The block the instruction is in; `None` once removed, or before it is placed.
    pub block: Option<Block>,
    /// Where the instruction was in the source, for diagnostics; empty for created instructions.
    pub span: Span,
}

impl InstData {
    /// An instruction with no operands yet, for passes to fill in.
    pub fn new(op: Opcode, ty: Type, tmpl: Vec<Piece>) -> Self {
        InstData {
            op,
            ty,
            result: None,
            args: SmallVec::new(),
            blocks: SmallVec::new(),
            tmpl: tmpl.into(),
            extra: Extra::None,
            block: None,
            span: Span::default(),
        }
    }

    /// The template to change, copied first if a clone shares it.
    pub fn tmpl_mut(&mut self) -> &mut [Piece] {
        Arc::make_mut(&mut self.tmpl)
    }

    /// Appends `p` to the template (a metadata attachment, say).
    pub fn push_piece(&mut self, p: Piece) {
        let mut v = self.tmpl.to_vec();
        v.push(p);
        self.tmpl = v.into();
    }

    /// Replaces each text piece for which `f` gives new text; the template is copied only if one
    /// changes.
    pub fn rewrite_texts(&mut self, mut f: impl FnMut(&Text) -> Option<Text>) {
        for k in 0..self.tmpl.len() {
            let new = match self.tmpl.get(k) {
                Some(Piece::Text(t)) => f(t),
                _ => None,
            };
            if let Some(n) = new
                && let Some(slot) = self.tmpl_mut().get_mut(k)
            {
                *slot = Piece::Text(n);
            }
        }
    }

    /// True for instructions whose operands are debug uses that must not keep a value alive.
    pub fn is_debug(&self) -> bool {
        matches!(self.extra, Extra::Debug)
    }

    /// The call's argument values, for `call`, `invoke` and `callbr`.
    pub fn call_args(&self) -> &[Value] {
        match self.extra {
            Extra::Call { nargs, .. } => self.args.get(..nargs as usize).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The called value of a `call`, `invoke` or `callbr` (a function's `@name` for a direct call).
    pub fn callee(&self) -> Option<Value> {
        match self.extra {
            Extra::Call { callee, .. } => self.args.get(callee as usize).copied(),
            _ => None,
        }
    }
}

/// A block's entry in [`Function::blocks`].
#[derive(Clone, Debug, Default)]
pub struct BlockData {
    /// Source spelling of the label without `%` and `:`; `None` for numbered blocks.
    pub name: Option<Name>,
    /// In order. Most blocks are short, and up to four instructions need no allocation of their own.
    pub insts: SmallVec<[Inst; 4]>,
}

/// A parameter as the `define` line spells it.
#[derive(Clone, Debug)]
pub struct Param {
    /// The parameter's type.
    pub ty: Type,
    /// Parameter attributes as spelled, e.g. `noundef nonnull align 8`.
    pub attrs: Text,
}

/// Everything on the `define` line that is not a parameter.
#[derive(Clone, Debug)]
pub struct Header {
    /// From `define` up to and including the space before the return type (linkage, cc, attributes).
    pub prefix: Text,
    /// The return type.
    pub ret: Type,
    /// The parameters, in order.
    pub params: Vec<Param>,
    /// The parameter list ends with `...`.
    pub vararg: bool,
    /// From the closing `)` (exclusive) up to the body's `{` (exclusive).
    pub suffix: Text,
}

/// One function's body in SSA form, parsed from a `define` (`Module::parse_function`) or made by a
/// pass. Values, instructions and blocks live in arenas indexed by their ids; removing an instruction
/// or block takes it out of `layout` (and its block's list) and leaves its arena entry unused.
#[derive(Debug)]
pub struct Function {
    /// Source spelling including the `@`.
    pub name: Box<str>,
    /// Everything on the `define` line.
    pub header: Header,
    /// Every value: parameters, results and constant operands.
    pub values: PrimaryMap<Value, ValueData>,
    /// Every instruction ever made, placed or not (`InstData::block`).
    pub insts: PrimaryMap<Inst, InstData>,
    /// Every block ever made; the ones in `layout` are the function's.
    pub blocks: PrimaryMap<Block, BlockData>,
    /// Block order; the first block is the entry.
    pub layout: Vec<Block>,
    /// The parameters' values, in order.
    pub params: Vec<Value>,
    /// The source numbered its unnamed values with gaps (LLVM 19+), so original numbers may be kept.
    pub numbering_gaps: bool,
    /// The `define` in the source, for diagnostics about the whole function; empty for new ones.
    pub span: Span,
    /// How the instructions' metadata references print.
    pub debug_view: DebugView,
    /// Debug locations a pass gave instructions it made (`!N`, 0 for none), printed after the
    /// instruction's text as `, !dbg !N`: a side table, so that locating thousands of new
    /// instructions copies none of their templates.
    pub added_locations: cranelift_entity::SecondaryMap<Inst, u32>,
}

/// How a function's instruction text prints its numbered metadata references. A pass that gives a
/// copy of a function debug info of its own (or none) says so here, and the printer renumbers (or
/// drops the `!dbg` locations) as it writes: rewriting every instruction's text instead copied each
/// shared template and its text.
#[derive(Clone, Debug, Default)]
pub enum DebugView {
    /// As the source spells them.
    #[default]
    AsWritten,
    /// References found in the map print as their new numbers.
    Renumbered(Arc<rustc_hash::FxHashMap<u32, u32>>),
    /// `, !dbg` attachments are left out.
    WithoutLocations,
}

/// A copy's arenas have headroom (`with_headroom`): copies are made to be edited.
impl Clone for Function {
    fn clone(&self) -> Self {
        fn arena<K: cranelift_entity::EntityRef, V: Clone>(m: &PrimaryMap<K, V>) -> PrimaryMap<K, V> {
            let mut out = PrimaryMap::with_capacity(with_headroom(m.len()));
            for v in m.values() {
                out.push(v.clone());
            }
            out
        }
        Function {
            name: self.name.clone(),
            header: self.header.clone(),
            values: arena(&self.values),
            insts: arena(&self.insts),
            blocks: arena(&self.blocks),
            layout: self.layout.clone(),
            params: self.params.clone(),
            numbering_gaps: self.numbering_gaps,
            span: self.span,
            debug_view: self.debug_view.clone(),
            added_locations: self.added_locations.clone(),
        }
    }
}

impl Function {
    /// An empty function (no blocks, values or parameters' values) with this name and header.
    pub fn new(name: impl Into<Box<str>>, header: Header) -> Self {
        Function {
            name: name.into(),
            header,
            values: PrimaryMap::new(),
            insts: PrimaryMap::new(),
            blocks: PrimaryMap::new(),
            layout: Vec::new(),
            params: Vec::new(),
            numbering_gaps: false,
            span: Span::default(),
            debug_view: DebugView::AsWritten,
            added_locations: cranelift_entity::SecondaryMap::new(),
        }
    }

    /// The entry block: the first in layout order; `None` for a function with no blocks yet.
    pub fn entry(&self) -> Option<Block> {
        self.layout.first().copied()
    }

    /// The last instruction of `b` when it is a terminator.
    pub fn terminator(&self, b: Block) -> Option<Inst> {
        let last = *self.blocks[b].insts.last()?;
        self.insts[last].op.is_terminator().then_some(last)
    }

    /// Successor blocks of `b`, in operand order (duplicates kept).
    pub fn successors(&self, b: Block) -> &[Block] {
        match self.terminator(b) {
            Some(t) => &self.insts[t].blocks,
            None => &[],
        }
    }

    /// The instruction that defines `v`, if `v` is an instruction's result.
    pub fn value_inst(&self, v: Value) -> Option<Inst> {
        match self.values[v].kind {
            ValueKind::Inst(i) => Some(i),
            _ => None,
        }
    }

    /// True when `v` is a constant operand (`blockaddress` constants included).
    pub fn is_const(&self, v: Value) -> bool {
        matches!(self.values[v].kind, ValueKind::Const(_) | ValueKind::BlockConst(_))
    }

    /// The text of a constant made of one piece (all constants but `blockaddress` of local blocks).
    pub fn const_text<'a>(&'a self, v: Value, src: &'a str) -> Option<&'a str> {
        match &self.values[v].kind {
            ValueKind::Const(t) => Some(t.get(src)),
            _ => None,
        }
    }

    /// The integer value of a simple integer constant (`i32 7`, `i1 true`).
    pub fn const_int(&self, v: Value, src: &str) -> Option<i128> {
        match self.const_text(v, src)? {
            "true" => Some(1),
            "false" => Some(0),
            t => t.parse::<i128>().ok(),
        }
    }

    /// The callee's global name (`@f`) of a direct call.
    pub fn callee_name<'a>(&'a self, i: Inst, src: &'a str) -> Option<&'a str> {
        let c = self.insts[i].callee()?;
        self.const_text(c, src).filter(|t| t.starts_with('@'))
    }

    /// Iterates over all instructions in layout order.
    pub fn inst_iter(&self) -> impl Iterator<Item = (Block, Inst)> + '_ {
        self.layout.iter().flat_map(move |&b| self.blocks[b].insts.iter().map(move |&i| (b, i)))
    }

    /// How many instructions the blocks in layout hold.
    pub fn num_insts(&self) -> usize {
        self.layout.iter().map(|&b| self.blocks[b].insts.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::Pred;

    #[test]
    fn predicates_keep_their_words() {
        for w in ["eq", "ne", "ugt", "sle", "oeq", "uno", "true", "false"] {
            assert_eq!(Pred::from_word(w).as_str(), w);
        }
        assert_ne!(Pred::from_word("slt"), Pred::from_word("sgt"));
        assert_eq!(Pred::from_word("samesign").as_str(), "");
    }
}
