//! Uniform vector components picked at run time, made into whole-vector reads before
//! SPIRV-Cross flattens the uniform blocks.
//!
//! `Weights[i]` on a `float4 Weights` uniform (a loop over a kernel's weights, a channel picked
//! by a uniform) is, in DXC's SPIR-V, an access chain into the `$Globals` block that ends with
//! a run-time component index, loaded as one float. SPIRV-Cross's flattening spells every block
//! read as a read of the `vec4` array, and a pointer to one float at a run-time lane has no such
//! spelling, so it refuses ("Stride for dynamic vector indexing must be divisible by the size of
//! a 4-component vector"). fxc compiled these reads (a relative-addressed constant and a
//! component select), so they must work.
//!
//! The same value, read as the whole vector and then indexed (`OpVectorExtractDynamic`), is a
//! read of one `vec4` register followed by `v[i]`, which GLSL 1.10 has. So each such access
//! chain loses its last index and points at the vector, and each load through it loads the
//! vector and extracts the component. A chain used other than by loads is left alone.
//!
//! DXC turns every run-time index into a `uint` (an `OpBitcast` of the `int`) before it indexes
//! with it; `integers`, which runs first, has already made that type signed, so the cast is an
//! `int` copy by then and no `uint` is left for GLSL 1.10 to lack.
//!
//! Input and output are SPIR-V words; the module is only rewritten when something matches.

use super::spirv::{instructions, module, Inst};
use std::collections::{BTreeMap, BTreeSet};

const OP_TYPE_VECTOR: u16 = 23;
const OP_TYPE_MATRIX: u16 = 24;
const OP_TYPE_ARRAY: u16 = 28;
const OP_TYPE_RUNTIME_ARRAY: u16 = 29;
const OP_TYPE_STRUCT: u16 = 30;
const OP_TYPE_POINTER: u16 = 32;
const OP_CONSTANT: u16 = 43;
const OP_FUNCTION: u16 = 54;
const OP_VARIABLE: u16 = 59;
const OP_LOAD: u16 = 61;
const OP_ACCESS_CHAIN: u16 = 65;
const OP_IN_BOUNDS_ACCESS_CHAIN: u16 = 66;
const OP_VECTOR_EXTRACT_DYNAMIC: u16 = 77;
/// Names, strings, line markers and decorations: they mention ids without using them.
const DEBUG_AND_ANNOTATIONS: [u16; 6] = [5, 6, 7, 8, 71, 72];
const STORAGE_UNIFORM: u32 = 2;

/// What an id declares, as far as walking an access chain needs.
enum Type {
    /// Component type.
    Vector(u32),
    /// Column type.
    Matrix(u32),
    /// Element type.
    Array(u32),
    /// Member types.
    Struct(Vec<u32>),
    /// Storage class and pointee.
    Pointer(u32, u32),
}

/// An access chain to rewrite: it ends at a vector (`vector`) instead of at one component.
struct Split {
    vector: u32,
    component: u32,
    lane: u32,
}

/// Rewrites the module if it reads a uniform vector's component at a run-time index; `None`
/// when it does not.
pub fn split_dynamic_lanes(words: &[u32]) -> Option<Vec<u32>> {
    let insts = instructions(words)?;
    let decls = Declarations::read(&insts);
    let mut splits: BTreeMap<u32, Split> = BTreeMap::new();
    for x in &insts {
        if let Some((result, split)) = decls.split(x) {
            splits.insert(result, split);
        }
    }
    keep_load_only(&insts, &mut splits);
    if splits.is_empty() {
        return None;
    }

    let mut bound = words[3];
    let mut fresh = || {
        bound += 1;
        bound - 1
    };
    let (vector_pointers, new_types) = vector_pointers(&decls.types, &splits, &mut fresh);
    let out = rewrite(insts, &splits, &vector_pointers, new_types, &mut fresh);
    Some(module(words, bound, out))
}

/// The declarations an access chain is walked through: types, integer constants (the
/// indices), and the pointer type of every variable and chain.
struct Declarations {
    types: BTreeMap<u32, Type>,
    constants: BTreeMap<u32, u32>,
    /// Result id → its (pointer) type id, for variables and access chains.
    pointer_of: BTreeMap<u32, u32>,
}

impl Declarations {
    /// One pass over the module, so walking each chain is map lookups.
    fn read(insts: &[Inst]) -> Self {
        let mut types: BTreeMap<u32, Type> = BTreeMap::new();
        let mut constants: BTreeMap<u32, u32> = BTreeMap::new();
        let mut pointer_of: BTreeMap<u32, u32> = BTreeMap::new();
        for x in insts {
            let o = |k| x.operand(k);
            let entry = match x.op() {
                OP_TYPE_VECTOR => o(1).map(Type::Vector),
                OP_TYPE_MATRIX => o(1).map(Type::Matrix),
                OP_TYPE_ARRAY | OP_TYPE_RUNTIME_ARRAY => o(1).map(Type::Array),
                OP_TYPE_STRUCT => Some(Type::Struct(x.0[2..].to_vec())),
                OP_TYPE_POINTER => o(1).zip(o(2)).map(|(s, t)| Type::Pointer(s, t)),
                OP_CONSTANT => {
                    if let (Some(id), Some(v)) = (o(1), o(2)) {
                        constants.insert(id, v);
                    }
                    None
                }
                OP_VARIABLE | OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN => {
                    if let (Some(t), Some(id)) = (o(0), o(1)) {
                        pointer_of.insert(id, t);
                    }
                    None
                }
                _ => None,
            };
            if let (Some(t), Some(id)) = (entry, o(0)) {
                types.insert(id, t);
            }
        }
        Declarations {
            types,
            constants,
            pointer_of,
        }
    }

    /// `x` as a split, with its result id, when it is an access chain into a uniform block whose
    /// last index picks a vector component at run time.
    fn split(&self, x: &Inst) -> Option<(u32, Split)> {
        if !matches!(x.op(), OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN) || x.0.len() < 5 {
            return None;
        }
        let (result, base) = (x.operand(1)?, x.operand(2)?);
        let Some(Type::Pointer(STORAGE_UNIFORM, t)) =
            self.pointer_of.get(&base).and_then(|p| self.types.get(p))
        else {
            return None;
        };
        let indices = &x.0[4..];
        let (lane, walk) = indices.split_last().expect("at least one index");
        if self.constants.contains_key(lane) {
            return None;
        }
        let vector = self.walk(*t, walk)?;
        let Some(Type::Vector(component)) = self.types.get(&vector) else {
            return None;
        };
        Some((
            result,
            Split {
                vector,
                component: *component,
                lane: *lane,
            },
        ))
    }

    /// The type `indices` lead to from `t`; `None` when a struct member is picked at run time
    /// or the chain leaves the types it can follow.
    fn walk(&self, mut t: u32, indices: &[u32]) -> Option<u32> {
        for idx in indices {
            t = match self.types.get(&t) {
                Some(Type::Struct(members)) => {
                    *members.get(*self.constants.get(idx)? as usize)?
                }
                Some(Type::Array(e) | Type::Matrix(e) | Type::Vector(e)) => *e,
                _ => return None,
            };
        }
        Some(t)
    }
}

/// Drops the splits used other than by loads: only a load can take the vector and extract the
/// lane (a uniform is never written).
fn keep_load_only(insts: &[Inst], splits: &mut BTreeMap<u32, Split>) {
    for x in insts
        .iter()
        .filter(|x| !DEBUG_AND_ANNOTATIONS.contains(&x.op()))
    {
        // Words from the header on: a chain's result (word 2) is its definition, a load's
        // pointer (word 3) the use allowed.
        let skip = match x.op() {
            OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN => 3,
            OP_LOAD => 4,
            _ => 1,
        };
        let used: Vec<u32> = x.0[skip.min(x.0.len())..]
            .iter()
            .filter(|w| splits.contains_key(w))
            .copied()
            .collect();
        for w in used {
            splits.remove(&w);
        }
    }
}

/// `OpTypePointer Uniform %vector` for every vector a chain now ends at: the module's own
/// where it has one, else a new declaration (returned second).
fn vector_pointers(
    types: &BTreeMap<u32, Type>,
    splits: &BTreeMap<u32, Split>,
    fresh: &mut dyn FnMut() -> u32,
) -> (BTreeMap<u32, u32>, Vec<Inst>) {
    let mut vector_pointers: BTreeMap<u32, u32> = BTreeMap::new();
    let mut new_types = Vec::new();
    let wanted: BTreeSet<u32> = splits.values().map(|s| s.vector).collect();
    for v in wanted {
        let existing = types.iter().find_map(|(id, t)| match t {
            Type::Pointer(STORAGE_UNIFORM, p) if *p == v => Some(*id),
            _ => None,
        });
        let id = existing.unwrap_or_else(|| {
            let id = fresh();
            new_types.push(Inst::new(OP_TYPE_POINTER, &[id, STORAGE_UNIFORM, v]));
            id
        });
        vector_pointers.insert(v, id);
    }
    (vector_pointers, new_types)
}

/// The module with each split chain ending at its vector and each load through it reading the
/// vector and extracting the lane; the new pointer types go before the first function.
fn rewrite(
    insts: Vec<Inst>,
    splits: &BTreeMap<u32, Split>,
    vector_pointers: &BTreeMap<u32, u32>,
    new_types: Vec<Inst>,
    fresh: &mut dyn FnMut() -> u32,
) -> Vec<Inst> {
    let mut out: Vec<Inst> = Vec::with_capacity(insts.len() + splits.len() * 2);
    let mut new_types = Some(new_types);
    for x in insts {
        if x.op() == OP_FUNCTION {
            // Types may be declared anywhere before the first function.
            if let Some(t) = new_types.take() {
                out.extend(t);
            }
        }
        match x.op() {
            OP_ACCESS_CHAIN | OP_IN_BOUNDS_ACCESS_CHAIN
                if x.operand(1).is_some_and(|r| splits.contains_key(&r)) =>
            {
                let s = &splits[&x.operand(1).expect("checked")];
                let mut w = x.0[1..x.0.len() - 1].to_vec();
                w[0] = vector_pointers[&s.vector];
                out.push(Inst::new(x.op(), &w));
            }
            OP_LOAD if x.operand(2).is_some_and(|p| splits.contains_key(&p)) => {
                let (Some(result), Some(pointer)) = (x.operand(1), x.operand(2)) else {
                    unreachable!("checked")
                };
                let s = &splits[&pointer];
                let vector = fresh();
                let mut load = vec![s.vector, vector, pointer];
                load.extend_from_slice(&x.0[4..]);
                out.push(Inst::new(OP_LOAD, &load));
                out.push(Inst::new(
                    OP_VECTOR_EXTRACT_DYNAMIC,
                    &[s.component, result, vector, s.lane],
                ));
            }
            _ => out.push(x),
        }
    }
    out
}
