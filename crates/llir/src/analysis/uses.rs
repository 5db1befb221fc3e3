//! Use lists: for each value, the instructions and operand slots that read it.

use crate::ir::{Function, Inst, Value};
use cranelift_entity::SecondaryMap;
use smallvec::SmallVec;

/// The use lists of a function's values, as of when they were computed.
pub struct Uses {
    /// For each value, every (instruction, operand index in its `args`) that reads it.
    pub uses: SecondaryMap<Value, SmallVec<[(Inst, u16); 2]>>,
}

impl Uses {
    /// The uses of `f`'s values by the instructions in its layout.
    pub fn compute(f: &Function) -> Uses {
        let mut uses: SecondaryMap<Value, SmallVec<[(Inst, u16); 2]>> = SecondaryMap::new();
        for (_, i) in f.inst_iter() {
            for (k, &v) in f.insts[i].args.iter().enumerate() {
                uses[v].push((i, k as u16));
            }
        }
        Uses { uses }
    }

    /// Where `v` is read: (instruction, operand index).
    pub fn of(&self, v: Value) -> &[(Inst, u16)] {
        &self.uses[v]
    }
}
