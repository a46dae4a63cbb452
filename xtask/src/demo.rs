//! `cargo xtask demo [GAME ARGS]`: install the system packages for headless OpenGL and wgpu
//! ([`crate::system_packages`]), make sure DXC is there, then run the example game: in a
//! window when an X display is available, otherwise headless for 120 frames with screenshots in
//! `target/demo/` (`shot-tint.png`, …, `shot-cube.png`, `shot-wave-frame1.png`,
//! `shot-wave-frame120.png`), and then once more on wgpu (`--wgpu`) with its screenshots in
//! `target/demo/wgpu/` (`shot-tint.png`, …) to set beside them. Arguments are passed to the
//! game (`--scene cube`, `--headless`, `--wgpu`, `--frames N`, `--screenshot PATH`); headless
//! runs get the defaults above for whatever is not given, and the second, wgpu run happens
//! only when neither `--wgpu` nor `--screenshot` is.

use std::process::Command;

/// The game's exit status when OpenGL is unavailable (`example_game::run::EXIT_NO_GL`).
const EXIT_NO_GL: i32 = 3;

pub fn run(extra: &[String]) -> Result<(), String> {
    crate::system_packages::ensure(
        &[crate::system_packages::GL, crate::system_packages::VULKAN].concat(),
    )?;
    crate::setup::run()?;
    let root = crate::setup::workspace_root();
    let has_display = std::env::var_os("DISPLAY").is_some_and(|d| !d.is_empty());
    let given = |flag: &str| extra.iter().any(|a| a == flag);
    let mut args: Vec<String> = extra.to_vec();
    let headless = given("--headless") || !has_display;
    let mut runs = Vec::new();
    if headless {
        if !given("--headless") {
            println!("no X display (DISPLAY is unset): running the game headless");
            args.push("--headless".into());
        }
        if !given("--frames") {
            args.extend(["--frames".into(), "120".into()]);
        }
        if !given("--screenshot") {
            if !given("--wgpu") {
                // The same frames on wgpu, screenshots beside OpenGL's.
                let mut wgpu = args.clone();
                let out = root.join("target/demo/wgpu/shot.png");
                wgpu.extend(["--wgpu".into(), "--screenshot".into()]);
                wgpu.push(out.display().to_string());
                runs.push(wgpu);
            }
            let out = root.join("target/demo/shot.png");
            args.extend(["--screenshot".into(), out.display().to_string()]);
        }
    }
    runs.insert(0, args);
    for args in &runs {
        game(&root, args)?;
    }
    Ok(())
}

/// Runs the game with `args`.
fn game(root: &std::path::Path, args: &[String]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let wgpu = args.iter().any(|a| a == "--wgpu");
    let status = Command::new(&cargo)
        .current_dir(root)
        .args(["run", "--quiet", "-p", "example-game", "--"])
        .args(args)
        .env("SHADOWDUSK_DXC", crate::setup::dxc_path())
        .status()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    match status.code() {
        Some(0) => Ok(()),
        Some(EXIT_NO_GL) if wgpu => Err(
            "the game found no wgpu adapter: install Mesa's Vulkan driver (headless), or run \
             it under an X server"
                .into(),
        ),
        Some(EXIT_NO_GL) => Err(format!(
            "the game found no OpenGL: install {} (headless), or run it under an X server",
            crate::system_packages::GL.join(" ")
        )),
        _ => Err(format!("the game failed ({status})")),
    }
}
