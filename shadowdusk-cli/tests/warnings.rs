//! fxc's warnings are warnings: effects that fxc (and so mgfxc) compiles with a warning compile
//! here too, and every warning is reported at its place in the user's file, in mgfxc's form on
//! the CLI. `/WX` turns them into errors. The build-script side (cargo `warning:` lines, and
//! `Builder::warnings_as_errors`) is checked with real cargo in `tests/tests/rebuild.rs`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether DXC is there; without it a loud skip, or a failure under `SHADOWDUSK_REQUIRE_ALL=1`.
fn dxc_or_fail(test: &str) -> bool {
    if shadowdusk_compiler::dxc::available() {
        return true;
    }
    shadowdusk_testkit::skip(test, "DXC is not available (run `cargo xtask setup`)");
    false
}

/// One shader with each warning kind DXC reports for D3D9-era code, and a technique name used
/// twice (mgfxc keeps both). Line numbers matter: the test pins them.
const EFFECT: &str = "\
float Amount = 0.5;
struct VSO { float4 Position : POSITION0; float2 UV : TEXCOORD0; };
float3 Shade(float2 uv)
{
    return float4(uv, Amount, 1);
}
float4 PS(VSO input) : COLOR0
{
    float2 uv = input.Position;
    uv == input.UV;
    float3 c = Shade(uv);
    for (int i = 0; i < 2; i++) { c += 0.1; }
    for (int i = 0; i < 2; i++) { c += 0.1; }
    return float4(c, 1);
}
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
technique T { pass P { PixelShader = compile ps_2_0 PS(); } }
";

fn run(dir: &Path, extra: &[&str]) -> (Option<i32>, String, PathBuf) {
    let input = dir.join("warns.fx");
    let output = dir.join(format!("warns{}.mgfx", extra.len()));
    let run = Command::new(env!("CARGO_BIN_EXE_shadowdusk"))
        .arg(&input)
        .arg(&output)
        .args(extra)
        .output()
        .expect("run shadowdusk");
    (
        run.status.code(),
        String::from_utf8_lossy(&run.stderr).into_owned(),
        output,
    )
}

#[test]
fn warnings_are_reported_in_mgfxc_form_and_the_effect_compiles() {
    if !dxc_or_fail("warnings_are_reported_in_mgfxc_form_and_the_effect_compiles") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("shadowdusk-warnings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("warns.fx"), EFFECT).unwrap();
    let file = dir.join("warns.fx").display().to_string();

    let (code, stderr, output) = run(&dir, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    let effect = shadowdusk_mgfx::read(&std::fs::read(&output).unwrap()).expect("reads back");
    let names: Vec<&str> = effect.techniques.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["T", "T"], "both techniques are kept, as mgfxc does");

    let lines: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("    ")).collect();
    let want = [
        format!("{file}(5,12): warning SD0110: implicit truncation of vector type [-Wconversion]"),
        format!("{file}(9,12): warning SD0110: implicit truncation of vector type [-Wconversion]"),
        format!("{file}(10,8): warning SD0110: equality comparison result unused [-Wunused-comparison]"),
        format!("{file}(13,14): warning SD0110: redefinition of 'i' shadows declaration in the outer scope; most recent declaration will be used [-Wfor-redefinition]"),
        format!("{file}(17,11): warning FX0005: duplicate technique name `T`"),
    ];
    assert_eq!(lines, want, "{stderr}");

    // `/WX`: the same text as errors, exit 1, no output file.
    let (code, stderr, output) = run(&dir, &["/WX"]);
    assert_eq!(code, Some(1), "{stderr}");
    assert!(!output.exists(), "no output when warnings are errors");
    assert!(
        stderr.contains(&format!(
            "{file}(5,12): error SD0110: implicit truncation of vector type [-Wconversion]"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains(": warning "), "{stderr}");
}

#[test]
fn preprocessor_habits_of_windows_projects_are_warnings() {
    if !dxc_or_fail("preprocessor_habits_of_windows_projects_are_warnings") {
        return;
    }
    let dir = std::env::temp_dir().join(format!("shadowdusk-warnings-pp-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("Include")).unwrap();
    std::fs::write(
        dir.join("Include/Macros.fxh"),
        "#define TINT float4(1, 0.5, 0.25, 1)\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("warns.fx"),
        "#include \"include/macros.fxh\"\n\
         #if SKINNED(4)\n\
         #error not taken\n\
         #endif\n\
         float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return TINT; }\n\
         technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n",
    )
    .unwrap();
    let (code, stderr, output) = run(&dir, &[]);
    assert_eq!(code, Some(0), "{stderr}");
    shadowdusk_mgfx::read(&std::fs::read(&output).unwrap()).expect("reads back");
    let file = dir.join("warns.fx").display().to_string();
    let lines: Vec<&str> = stderr.lines().filter(|l| !l.starts_with("    ")).collect();
    assert_eq!(
        lines,
        [
            format!("{file}(1,10): warning SD0008: `include/macros.fxh` names `{}` with a different letter case", dir.join("Include/Macros.fxh").display()),
            format!("{file}(2,5): warning SD0007: `SKINNED` is not a function-like macro; the call counts as 0"),
        ],
        "{stderr}"
    );
}

#[test]
fn whole_file_and_command_line_errors_have_a_code_and_name_the_file() {
    let dir = std::env::temp_dir().join(format!("shadowdusk-whole-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("notech.fx");
    std::fs::write(&input, "float4 PS() : COLOR0 { return 1; }\n").unwrap();
    let exe = env!("CARGO_BIN_EXE_shadowdusk");
    let stderr_of = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(exe)
            .args(args)
            .output()
            .expect("run shadowdusk");
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let file = input.display().to_string();
    let out = dir.join("x.mgfx");

    if dxc_or_fail("whole_file_and_command_line_errors_have_a_code_and_name_the_file") {
        let e = stderr_of(&[input.as_os_str(), out.as_os_str()]);
        assert!(e.starts_with(&format!("{file}: error SD0010: ")), "{e}");
    }
    let e = stderr_of(&[
        input.as_os_str(),
        out.as_os_str(),
        "/Profile:DirectX_11".as_ref(),
    ]);
    assert!(
        e.starts_with(&format!(
            "{file}: error SD0030: profile `DirectX_11` is not supported"
        )),
        "{e}"
    );
    let e = stderr_of(&[input.as_os_str(), out.as_os_str(), "/Frobnicate:1".as_ref()]);
    assert!(
        e.starts_with("error SD0030: unknown option `/Frobnicate:1`"),
        "{e}"
    );
    let e = stderr_of(&[dir.join("absent.fx").as_os_str(), out.as_os_str()]);
    assert!(e.contains("error SD0005: cannot read"), "{e}");
    assert!(e.contains("absent.fx"), "{e}");
}
