//! Command-line options.

use std::path::PathBuf;

use crate::hot::Watch;
use crate::scene::Scene;

/// How to run.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// No window: an EGL surfaceless pbuffer (with `wgpu`: a device without a surface).
    pub headless: bool,
    /// Draw with wgpu (`shadowdusk::wgpu_runtime`) instead of OpenGL.
    pub wgpu: bool,
    /// Stop after this many frames (headless: default [`DEFAULT_FRAMES`]).
    pub frames: Option<u64>,
    /// Write screenshots: a `.png` file name (`out.png` gives `out-tint.png`, …) or a folder.
    pub screenshot: Option<PathBuf>,
    /// The scene shown first.
    pub scene: Scene,
    /// Which shader files are followed (`--hot`, `--hot-dir DIR`).
    pub watch: Watch,
}

/// Frames run headless, or before a windowed screenshot, when `--frames` is not given.
pub const DEFAULT_FRAMES: u64 = 60;

/// The `--help` text.
pub const USAGE: &str = "\
usage: example-game [--wgpu] [--headless] [--frames N] [--screenshot OUT.png|DIR]
                    [--scene NAME] [--hot | --hot-dir DIR]

  --wgpu              draw with wgpu (Vulkan, else GL; WGPU_BACKEND chooses) instead of
                      OpenGL: the same scenes, in a window with a wgpu surface or headless
  --headless          render without a window (OpenGL: EGL surfaceless, Mesa llvmpipe;
                      wgpu: a device with no surface, e.g. Mesa lavapipe)
  --frames N          stop after N frames (default 60 headless or with --screenshot)
  --screenshot PATH   write one PNG per scene at the last frame, plus the wave scene at
                      frame 1 and frame N: OUT-tint.png, ... or DIR/tint.png, ...
  --scene NAME        first scene: tint, sepia, grayscale, wave, cube, skinned
  --hot               reload an effect when its source in example-game/shaders (or an
                      include) is saved; the label says when it reloaded, or why not
  --hot-dir DIR       like --hot, following DIR/tint.fx, ... (a copy of the shaders)

keys: 1-6 choose a scene, Tab the next one, Esc quits";

/// Parses the arguments after the program name. `Ok(None)` for `--help`.
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Option<Options>, String> {
    let mut options = Options {
        headless: false,
        wgpu: false,
        frames: None,
        screenshot: None,
        scene: Scene::Tint,
        watch: Watch::Off,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--headless" => options.headless = true,
            "--wgpu" => options.wgpu = true,
            "--frames" => {
                let v = value("--frames")?;
                let n: u64 = v
                    .parse()
                    .map_err(|_| format!("--frames takes a whole number, not '{v}'"))?;
                if n == 0 {
                    return Err("--frames must be at least 1".into());
                }
                options.frames = Some(n);
            }
            "--screenshot" => options.screenshot = Some(PathBuf::from(value("--screenshot")?)),
            "--scene" => {
                let v = value("--scene")?;
                options.scene = Scene::from_name(&v).ok_or_else(|| {
                    let names: Vec<&str> = Scene::ALL.iter().map(|s| s.name()).collect();
                    format!("unknown scene '{v}'; one of: {}", names.join(", "))
                })?;
            }
            "--hot" => {
                if options.watch == Watch::Off {
                    options.watch = Watch::Sources;
                }
            }
            "--hot-dir" => options.watch = Watch::Dir(PathBuf::from(value("--hot-dir")?)),
            "-h" | "--help" => return Ok(None),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    Ok(Some(options))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_the_headless_screenshot_command() {
        let o = parse(args(
            "--headless --frames 30 --screenshot out.png --scene cube",
        ))
        .unwrap()
        .unwrap();
        assert!(o.headless);
        assert!(!o.wgpu);
        assert_eq!(o.frames, Some(30));
        assert_eq!(o.screenshot, Some(PathBuf::from("out.png")));
        assert_eq!(o.scene, Scene::Cube);
        assert_eq!(o.watch, Watch::Off);
    }

    #[test]
    fn wgpu_takes_the_same_options_hot_reload_too() {
        let o = parse(args("--wgpu --headless --frames 5 --scene skinned"))
            .unwrap()
            .unwrap();
        assert!(o.wgpu && o.headless);
        assert_eq!((o.frames, o.scene), (Some(5), Scene::Skinned));
        let hot = parse(args("--wgpu --hot")).unwrap().unwrap();
        assert!(hot.wgpu);
        assert_eq!(hot.watch, Watch::Sources);
        let dir = parse(args("--hot-dir x --wgpu")).unwrap().unwrap();
        assert_eq!(dir.watch, Watch::Dir(PathBuf::from("x")));
    }

    #[test]
    fn hot_follows_the_sources_or_a_folder() {
        assert_eq!(parse(args("--hot")).unwrap().unwrap().watch, Watch::Sources);
        let dir = Watch::Dir(PathBuf::from("/tmp/copy"));
        assert_eq!(
            parse(args("--hot-dir /tmp/copy")).unwrap().unwrap().watch,
            dir
        );
        assert_eq!(
            parse(args("--hot-dir /tmp/copy --hot"))
                .unwrap()
                .unwrap()
                .watch,
            dir
        );
        assert!(parse(args("--hot-dir"))
            .unwrap_err()
            .contains("needs a value"));
    }

    #[test]
    fn refuses_bad_values_with_a_reason() {
        assert!(parse(args("--frames x")).unwrap_err().contains("'x'"));
        assert!(parse(args("--frames 0")).is_err());
        assert!(parse(args("--scene moon")).unwrap_err().contains("tint"));
        assert!(parse(args("--frames"))
            .unwrap_err()
            .contains("needs a value"));
        assert!(parse(args("--fast")).is_err());
        assert_eq!(parse(args("--help")).unwrap(), None);
    }
}
