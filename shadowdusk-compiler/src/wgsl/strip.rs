//! Debug information naga's SPIR-V reader refuses: `OpLine`/`OpNoLine` ("unsupported
//! instruction Line"), the non-semantic extended instructions `-Zi` adds, and the source text
//! records. None of it changes what the shader computes.

use super::words::{op, string, Spv};

pub(super) fn strip(spv: &mut Spv) {
    // The non-semantic instruction sets' ids; their `OpExtInst`s go with them.
    let non_semantic: Vec<u32> = spv
        .insts
        .iter()
        .filter(|i| i.op() == op::EXT_INST_IMPORT && string(&i.0[2..]).starts_with("NonSemantic."))
        .filter_map(|i| i.operand(0))
        .collect();
    spv.insts.retain(|i| match i.op() {
        op::LINE
        | op::NO_LINE
        | op::SOURCE
        | op::SOURCE_CONTINUED
        | op::SOURCE_EXTENSION
        | op::MODULE_PROCESSED => false,
        op::EXTENSION => !string(&i.0[1..]).starts_with("SPV_KHR_non_semantic_info"),
        op::EXT_INST_IMPORT => !i.operand(0).is_some_and(|id| non_semantic.contains(&id)),
        op::EXT_INST => !i.operand(2).is_some_and(|set| non_semantic.contains(&set)),
        // Semantic strings for reflection (`-fspv-reflect`); naga has no use for them.
        op::DECORATE_STRING | op::MEMBER_DECORATE_STRING => false,
        _ => true,
    });
    // `OpString`s named only by the line records removed above.
    spv.insts.retain(|i| i.op() != op::STRING);
}
