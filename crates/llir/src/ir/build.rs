//! Constructors for the instructions passes create. Each returns an `Inst` that is not yet in any
//! block; place it with `append_inst` / `insert_inst_at`. Templates are owned text in the module's
//! dialect: opaque `ptr`, or typed pointers when the builder is told the module uses them.

use super::edit::t;
use super::{Block, Extra, Function, Inst, InstData, Opcode, Piece, Value};
use crate::types::{Type, TypeData, TypeTable};

/// Makes instructions in `f`, spelling their types from `types`.
pub struct Builder<'a> {
    /// The function the instructions are made in.
    pub f: &'a mut Function,
    /// The table of the function's types (the module's, or a clone of it).
    pub types: &'a mut TypeTable,
}

impl<'a> Builder<'a> {
    /// A builder of instructions in `f`.
    pub fn new(f: &'a mut Function, types: &'a mut TypeTable) -> Self {
        Builder { f, types }
    }

    fn ty(&self, ty: Type) -> String {
        self.types.display(ty)
    }

    fn vty(&self, v: Value) -> Type {
        self.f.values[v].ty
    }

    fn make(&mut self, op: Opcode, ty: Type, args: &[Value], blocks: &[Block], tmpl: Vec<Piece>, extra: Extra) -> Inst {
        let mut d = InstData::new(op, ty, tmpl);
        d.args.extend_from_slice(args);
        d.blocks.extend_from_slice(blocks);
        d.extra = extra;
        self.f.create_inst(self.types, d)
    }

    /// The value `i` defines. Only for an instruction this builder made with a non-void type.
    pub fn result(&self, i: Inst) -> Value {
        self.f.insts[i].result.expect("instruction has a result")
    }

    /// `getelementptr inbounds i8, ptr %base, i64 off`; the result has `base`'s pointer type.
    pub fn gep_i8(&mut self, base: Value, off: u64) -> Inst {
        self.gep_i8_signed(base, off as i64)
    }

    /// `gep_i8` going backwards (`coro.promise` with `from = true`).
    pub fn gep_i8_neg(&mut self, base: Value, off: u64) -> Inst {
        self.gep_i8_signed(base, -(off as i64))
    }

    fn gep_i8_signed(&mut self, base: Value, off: i64) -> Inst {
        let bt = self.vty(base);
        let s = format!("getelementptr inbounds i8, {} ", self.ty(bt));
        let i8t = self.types.i8;
        self.make(
            Opcode::GetElementPtr,
            bt,
            &[base],
            &[],
            vec![t(&s), Piece::Arg(0), t(&format!(", i64 {off}"))],
            Extra::Gep { source: i8t },
        )
    }

    /// `bitcast` to `to` (used for typed pointers).
    pub fn bitcast(&mut self, v: Value, to: Type) -> Inst {
        let s = format!("bitcast {} ", self.ty(self.vty(v)));
        let e = format!(" to {}", self.ty(to));
        self.make(Opcode::BitCast, to, &[v], &[], vec![t(&s), Piece::Arg(0), t(&e)], Extra::None)
    }

    /// `addrspacecast` to `to` (a frame address handed to users of an alloca in another address space).
    pub fn addrspacecast(&mut self, v: Value, to: Type) -> Inst {
        let s = format!("addrspacecast {} ", self.ty(self.vty(v)));
        let e = format!(" to {}", self.ty(to));
        self.make(Opcode::AddrSpaceCast, to, &[v], &[], vec![t(&s), Piece::Arg(0), t(&e)], Extra::None)
    }

    /// `load TY, ptr %ptr, align ALIGN`.
    pub fn load(&mut self, ty: Type, ptr: Value, align: u64) -> Inst {
        let s = format!("load {}, {} ", self.ty(ty), self.ty(self.vty(ptr)));
        self.make(
            Opcode::Load,
            ty,
            &[ptr],
            &[],
            vec![t(&s), Piece::Arg(0), t(&format!(", align {align}"))],
            Extra::Access { align: Some(align as u32) },
        )
    }

    /// `store TY %val, ptr %ptr, align ALIGN`.
    pub fn store(&mut self, val: Value, ptr: Value, align: u64) -> Inst {
        let a = format!("store {} ", self.ty(self.vty(val)));
        let b = format!(", {} ", self.ty(self.vty(ptr)));
        let void = self.types.void;
        self.make(
            Opcode::Store,
            void,
            &[val, ptr],
            &[],
            vec![t(&a), Piece::Arg(0), t(&b), Piece::Arg(1), t(&format!(", align {align}"))],
            Extra::Access { align: Some(align as u32) },
        )
    }

    /// `call [cc] RET CALLEE(ARGS)`; `prefix` is e.g. `"musttail "` or `""`.
    pub fn call(&mut self, prefix: &str, cc: &str, ret: Type, callee: Value, args: &[Value]) -> Inst {
        let mut tmpl = vec![t(&format!("{prefix}call {cc}{}{} ", if cc.is_empty() { "" } else { " " }, self.ty(ret)))];
        let n = args.len();
        tmpl.push(Piece::Arg(n as u16));
        tmpl.push(t("("));
        for (k, &a) in args.iter().enumerate() {
            let sep = if k == 0 { "" } else { ", " };
            tmpl.push(t(&format!("{sep}{} ", self.ty(self.vty(a)))));
            tmpl.push(Piece::Arg(k as u16));
        }
        tmpl.push(t(")"));
        let params: Vec<Type> = args.iter().map(|&a| self.vty(a)).collect();
        let fn_ty = self.types.intern(TypeData::Func { ret, params: params.into(), vararg: false });
        let mut all: Vec<Value> = args.to_vec();
        all.push(callee);
        self.make(Opcode::Call, ret, &all, &[], tmpl, Extra::Call { callee: n as u16, nargs: n as u16, fn_ty })
    }

    /// `insertvalue AGG %agg, TY %v, idx`: the aggregate `agg` with element `idx` set to `v`.
    pub fn insertvalue(&mut self, agg: Value, v: Value, idx: u32) -> Inst {
        let aty = self.vty(agg);
        let a = format!("insertvalue {} ", self.ty(aty));
        let b = format!(", {} ", self.ty(self.vty(v)));
        self.make(
            Opcode::InsertValue,
            aty,
            &[agg, v],
            &[],
            vec![t(&a), Piece::Arg(0), t(&b), Piece::Arg(1), t(&format!(", {idx}"))],
            Extra::None,
        )
    }

    /// A conversion `op` (`zext`, `trunc`, `ptrtoint`, ...) of `v` to `to`.
    pub fn cast(&mut self, op: Opcode, word: &str, v: Value, to: Type) -> Inst {
        let s = format!("{word} {} ", self.ty(self.vty(v)));
        let e = format!(" to {}", self.ty(to));
        self.make(op, to, &[v], &[], vec![t(&s), Piece::Arg(0), t(&e)], Extra::None)
    }

    /// A binary operation `word` (`add`, `and`, ...) of `a` and `b`, of `a`'s type.
    pub fn binary(&mut self, op: Opcode, word: &str, a: Value, b: Value) -> Inst {
        let ty = self.vty(a);
        let s = format!("{word} {} ", self.ty(ty));
        self.make(op, ty, &[a, b], &[], vec![t(&s), Piece::Arg(0), t(", "), Piece::Arg(1)], Extra::None)
    }

    /// `br label %to`.
    pub fn br(&mut self, to: Block) -> Inst {
        self.f.create_br(self.types, to)
    }

    /// `br i1 %c, label %yes, label %no`.
    pub fn cond_br(&mut self, c: Value, yes: Block, no: Block) -> Inst {
        let void = self.types.void;
        self.make(
            Opcode::Br,
            void,
            &[c],
            &[yes, no],
            vec![t("br i1 "), Piece::Arg(0), t(", label "), Piece::Block(0), t(", label "), Piece::Block(1)],
            Extra::None,
        )
    }

    /// `switch TY %v, label %default [ cases ]`, where the case values are constants of `v`'s type.
    pub fn switch(&mut self, v: Value, default: Block, cases: &[(Value, Block)]) -> Inst {
        let ty = self.ty(self.vty(v));
        let mut tmpl = vec![t(&format!("switch {ty} ")), Piece::Arg(0), t(", label "), Piece::Block(0), t(" [\n")];
        let mut args = vec![v];
        let mut blocks = vec![default];
        for &(c, b) in cases {
            tmpl.push(t(&format!("    {ty} ")));
            tmpl.push(Piece::Arg(args.len() as u16));
            tmpl.push(t(", label "));
            tmpl.push(Piece::Block(blocks.len() as u16));
            tmpl.push(t("\n"));
            args.push(c);
            blocks.push(b);
        }
        tmpl.push(t("  ]"));
        let void = self.types.void;
        self.make(Opcode::Switch, void, &args, &blocks, tmpl, Extra::None)
    }

    /// `phi TY [ v, %b ], ...`; the incoming values all have type `ty`.
    pub fn phi(&mut self, ty: Type, incoming: &[(Value, Block)]) -> Inst {
        let head = format!("phi {}", self.ty(ty));
        let args: Vec<Value> = incoming.iter().map(|&(v, _)| v).collect();
        let blocks: Vec<Block> = incoming.iter().map(|&(_, b)| b).collect();
        self.make(Opcode::Phi, ty, &args, &blocks, vec![t(&head), t("")], Extra::Phi)
    }

    /// `ret void`.
    pub fn ret_void(&mut self) -> Inst {
        let void = self.types.void;
        self.make(Opcode::Ret, void, &[], &[], vec![t("ret void")], Extra::None)
    }

    /// `ret TY %v`.
    pub fn ret(&mut self, v: Value) -> Inst {
        let s = format!("ret {} ", self.ty(self.vty(v)));
        let void = self.types.void;
        self.make(Opcode::Ret, void, &[v], &[], vec![t(&s), Piece::Arg(0)], Extra::None)
    }

    /// `cleanuppad within PARENT []` (`none` without a parent pad): a cleanup funclet's pad.
    pub fn cleanuppad(&mut self, parent: Option<Value>) -> Inst {
        let token = self.types.token;
        match parent {
            Some(p) => self.make(
                Opcode::CleanupPad,
                token,
                &[p],
                &[],
                vec![t("cleanuppad within "), Piece::Arg(0), t(" []")],
                Extra::None,
            ),
            None => self.make(Opcode::CleanupPad, token, &[], &[], vec![t("cleanuppad within none []")], Extra::None),
        }
    }

    /// `cleanupret from %pad unwind label %to`.
    pub fn cleanupret(&mut self, pad: Value, to: Block) -> Inst {
        let void = self.types.void;
        let tmpl = vec![t("cleanupret from "), Piece::Arg(0), t(" unwind label "), Piece::Block(0)];
        self.make(Opcode::CleanupRet, void, &[pad], &[to], tmpl, Extra::None)
    }

    /// `unreachable`.
    pub fn unreachable(&mut self) -> Inst {
        let void = self.types.void;
        self.make(Opcode::Unreachable, void, &[], &[], vec![t("unreachable")], Extra::None)
    }

    /// `icmp PRED TY %a, %b`.
    pub fn icmp(&mut self, pred: &str, a: Value, b: Value) -> Inst {
        let s = format!("icmp {pred} {} ", self.ty(self.vty(a)));
        let i1 = self.types.i1;
        self.make(
            Opcode::ICmp,
            i1,
            &[a, b],
            &[],
            vec![t(&s), Piece::Arg(0), t(", "), Piece::Arg(1)],
            Extra::Cmp { pred: super::Pred::from_word(pred) },
        )
    }

    /// `select i1 %c, TY %a, TY %b`.
    pub fn select(&mut self, c: Value, a: Value, b: Value) -> Inst {
        let ty = self.vty(a);
        let s = self.ty(ty);
        self.make(
            Opcode::Select,
            ty,
            &[c, a, b],
            &[],
            vec![
                t("select i1 "),
                Piece::Arg(0),
                t(&format!(", {s} ")),
                Piece::Arg(1),
                t(&format!(", {s} ")),
                Piece::Arg(2),
            ],
            Extra::None,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Header, Param, Text, ValueData, ValueKind};
    use crate::print::print_function;
    use crate::verify::verify_function;

    #[test]
    fn builds_a_valid_function() {
        let mut types = TypeTable::new();
        let header = Header {
            prefix: Text::own("define "),
            ret: types.i32,
            params: vec![Param { ty: types.ptr, attrs: Text::own("") }],
            vararg: false,
            suffix: Text::own(" "),
        };
        let mut f = Function::new("@g", header);
        let p = f.values.push(ValueData { ty: types.ptr, kind: ValueKind::Param(0), name: Some("p".into()) });
        f.params.push(p);
        let entry = f.create_block(Some("entry"));
        let other = f.create_block(Some("other"));
        f.layout.extend([entry, other]);
        let mut b = Builder::new(&mut f, &mut types);
        let g = b.gep_i8(p, 16);
        let gv = b.result(g);
        let l = b.load(b.types.i32, gv, 4);
        let lv = b.result(l);
        let zero = b.f.const_value(b.types.i32, "0");
        let sum = b.binary(Opcode::Add, "add", lv, zero);
        let sv = b.result(sum);
        let c = b.icmp("eq", sv, zero);
        let cv = b.result(c);
        let br = b.cond_br(cv, other, other);
        let st = b.store(lv, gv, 4);
        let r = b.ret(lv);
        for i in [g, l, sum, c, br] {
            f.append_inst(entry, i);
        }
        f.append_inst(other, st);
        f.append_inst(other, r);
        f.split_critical_edges(&types);
        verify_function(&f).expect("valid");
        let text = print_function(&f, &types, "");
        assert!(text.contains("%0 = getelementptr inbounds i8, ptr %p, i64 16"), "{text}");
        assert!(text.contains("%1 = load i32, ptr %0, align 4"), "{text}");
        assert!(text.contains("%2 = add i32 %1, 0"), "{text}");
        assert!(text.contains("store i32 %1, ptr %0, align 4"), "{text}");
    }
}
