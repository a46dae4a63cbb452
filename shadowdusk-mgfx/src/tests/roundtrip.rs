//! write → read → equal over every field of the model, v10 and v11.

use super::fixtures::{everything, tint_shader};
use crate::{read, write, Effect, ShaderStage};

fn round_trip(effect: &Effect) -> Effect {
    let bytes = write(effect).expect("valid effect");
    let back = read(&bytes).expect("written bytes read back");
    assert_eq!(
        write(&back).expect("still valid"),
        bytes,
        "second write differs"
    );
    back
}

#[test]
fn every_field_survives_v10() {
    let effect = everything(10);
    let mut back = round_trip(&effect);
    assert_ne!(back.key, 0);
    back.key = effect.key;
    assert_eq!(back, effect);
}

#[test]
fn every_field_survives_v11() {
    let effect = everything(11);
    let bytes = write(&effect).expect("valid");
    assert_eq!(bytes[4], 11);
    let back = read(&bytes).expect("reads");
    // A missing v11 string is written as mgfxc's "<unknown>".
    assert_eq!(
        back.shaders[0].source_file.as_deref(),
        Some("shaders/all.fx")
    );
    assert_eq!(back.shaders[0].entry_point.as_deref(), Some("<unknown>"));
    assert_eq!(back.shaders[1].entry_point.as_deref(), Some("MainVS"));
    let mut expected = effect.clone();
    expected.key = back.key;
    expected.shaders[0].entry_point = Some("<unknown>".into());
    assert_eq!(back, expected);
}

#[test]
fn v10_drops_v11_strings_and_other_versions_write_v10() {
    let mut effect = everything(11);
    effect.version = 7;
    let bytes = write(&effect).expect("valid");
    assert_eq!(bytes[4], 10);
    let back = read(&bytes).expect("reads");
    assert!(back
        .shaders
        .iter()
        .all(|s| s.source_file.is_none() && s.entry_point.is_none()));
    assert_eq!(bytes, write(&everything(10)).expect("valid"));
}

#[test]
fn key_is_recomputed_and_depends_on_the_body() {
    let mut a = everything(10);
    a.key = 12345;
    let bytes_a = write(&a).expect("valid");
    a.key = -1;
    assert_eq!(
        write(&a).expect("valid"),
        bytes_a,
        "input key must be ignored"
    );
    let mut b = everything(10);
    b.techniques[0].passes[0].name = "x".into();
    let bytes_b = write(&b).expect("valid");
    assert_ne!(bytes_a[6..10], bytes_b[6..10]);
}

#[test]
fn non_canonical_bool_bytes_read_as_true() {
    // TintShader's layout (mgfx-format.md §14) with its shader turned into a vertex shader: the
    // stage flag sits at byte 47.
    let mut effect = tint_shader(b"void main() {}");
    effect.shaders[0].stage = ShaderStage::Vertex;
    effect.techniques[0].passes[0].vertex_shader = 0;
    effect.techniques[0].passes[0].pixel_shader = -1;
    let mut bytes = write(&effect).expect("valid");
    assert_eq!(bytes[47], 1);
    // The writer emits 0/1; MonoGame's ReadBoolean takes any non-zero byte as true.
    bytes[47] = 0x02;
    let back = read(&bytes).expect("any non-zero bool is true");
    assert_eq!(back.shaders[0].stage, ShaderStage::Vertex);
    bytes[47] = 0x00;
    let err = read(&bytes).expect_err("now a pixel shader in the vertex slot");
    assert!(err.what.contains("other stage"), "{err}");
}

#[test]
fn json_dump_round_trips() {
    let effect = everything(11);
    let json = serde_json::to_string_pretty(&effect).expect("serializes");
    assert!(json.contains("\"TessellateFactor\""));
    let back: Effect = serde_json::from_str(&json).expect("deserializes");
    assert_eq!(back, effect);
}
