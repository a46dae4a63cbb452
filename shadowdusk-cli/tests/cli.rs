//! The `shadowdusk` command behaves like mgfxc: exit 0 and an MGFX file that reads back on
//! success; exit 1, `file(line,col): error CODE: message` on stderr and no output on failure.

use std::path::PathBuf;

const PS: &str = "float4 PS(float2 uv : TEXCOORD0) : COLOR0 { return float4(uv, 0, 1); }\n";
const TECH: &str = "technique T { pass P { PixelShader = compile ps_2_0 PS(); } }\n";

#[test]
fn the_cli_follows_mgfxc_exit_codes_and_error_format() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(
            "the_cli_follows_mgfxc_exit_codes_and_error_format",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_shadowdusk"));
    let d = std::env::temp_dir().join(format!("shadowdusk-cli-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let good = d.join("good.fx");
    std::fs::write(&good, format!("{PS}{TECH}")).unwrap();
    let out = d.join("out/good.mgfx");
    let run = std::process::Command::new(&exe)
        .arg(&good)
        .arg(&out)
        .arg("/Profile:OpenGL")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let effect = shadowdusk_mgfx::read(&std::fs::read(&out).unwrap()).expect("reads back");
    assert_eq!(effect.techniques[0].name, "T");

    let bad = d.join("bad.fx");
    std::fs::write(
        &bad,
        format!("{PS}technique T {{ pass P {{ PixelShader = compile ps_2_0 Nope(); }} }}\n"),
    )
    .unwrap();
    let run = std::process::Command::new(&exe)
        .arg(&bad)
        .arg(d.join("bad.mgfx"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.starts_with(&format!("{}(2,53): error SD0102: ", bad.display())),
        "{stderr}"
    );
    assert!(!d.join("bad.mgfx").exists(), "no output on failure");

    let run = std::process::Command::new(&exe)
        .arg(d.join("absent.fx"))
        .arg(d.join("x.mgfx"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("SD0005"));
}

#[test]
fn the_cli_writes_mgfx_v11_on_request_and_v10_by_default() {
    if !shadowdusk_compiler::dxc::available() {
        shadowdusk_testkit::skip(
            "the_cli_writes_mgfx_v11_on_request_and_v10_by_default",
            "DXC is not available (run `cargo xtask setup`)",
        );
        return;
    }
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_shadowdusk"));
    let d = std::env::temp_dir().join(format!("shadowdusk-cli-v11-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let input = d.join("tint.fx");
    std::fs::write(&input, format!("{PS}{TECH}")).unwrap();
    let run = |out: &str, extra: &[&str]| {
        let o = std::process::Command::new(&exe)
            .arg(&input)
            .arg(d.join(out))
            .args(extra)
            .output()
            .unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    assert_eq!(run("v10.mgfx", &[]).0, Some(0));
    assert_eq!(run("v11.mgfx", &["/MGFXVersion:11"]).0, Some(0));
    let v10 = shadowdusk_mgfx::read(&std::fs::read(d.join("v10.mgfx")).unwrap()).unwrap();
    let v11 = shadowdusk_mgfx::read(&std::fs::read(d.join("v11.mgfx")).unwrap()).unwrap();
    assert_eq!((v10.version, v11.version), (10, 11));
    assert_eq!(v11.shaders[0].entry_point.as_deref(), Some("PS"));
    assert_eq!(
        v11.shaders[0].source_file.as_deref(),
        Some(input.display().to_string().as_str())
    );
    let (code, stderr) = run("v12.mgfx", &["/MGFXVersion:12"]);
    assert_eq!(code, Some(1));
    assert!(
        stderr.starts_with("error SD0030: MGFX version `12` is not supported"),
        "{stderr}"
    );
}

/// `--version` (and `-V`) prints the version and exits 0, without DXC.
#[test]
fn version_prints_the_version() {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_shadowdusk"));
    for flag in ["--version", "-V"] {
        let run = std::process::Command::new(&exe).arg(flag).output().unwrap();
        assert!(run.status.success(), "{flag}");
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            format!("shadowdusk {}\n", env!("CARGO_PKG_VERSION")),
            "{flag}"
        );
    }
}
