//! Use lists: for each value, the instructions and operand slots that read it.

use crate::ir::{Function, Inst, Value};
use cranelift_entity::SecondaryMap;
use smallvec::SmallVec;

pub struct Uses {
    pub uses: SecondaryMap<Value, SmallVec<[(Inst, u16); 2]>>,
}

impl Uses {
    pub fn compute(f: &Function) -> Uses {
        let mut uses: SecondaryMap<Value, SmallVec<[(Inst, u16); 2]>> = SecondaryMap::new();
        for (_, i) in f.inst_iter() {
            for (k, &v) in f.insts[i].args.iter().enumerate() {
                uses[v].push((i, k as u16));
            }
        }
        Uses { uses }
    }

    pub fn of(&self, v: Value) -> &[(Inst, u16)] {
        &self.uses[v]
    }
}
