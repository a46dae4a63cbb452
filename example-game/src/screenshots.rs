//! Screenshots: which scenes are captured when, and where the PNGs go. The same code serves
//! the headless loop and the window, on OpenGL (the back buffer, read before it is shown) and
//! on wgpu (an offscreen target of the same size): each renderer is a [`Shoot`].

use std::path::{Path, PathBuf};

use glow::HasContext;
use image::RgbaImage;
use shadowdusk::gl::{GlContext, RenderTarget};

use crate::game::Game;
use crate::scene::Scene;

/// A renderer screenshots can be taken of.
pub trait Shoot {
    /// Renders `scene` at the current time into a `size` image, top row first; the scene on
    /// screen stays what it was.
    fn shoot(&mut self, scene: Scene, size: (u32, u32)) -> Result<RgbaImage, String>;
}

impl Shoot for Game {
    /// Renders into the back buffer and reads it.
    fn shoot(&mut self, scene: Scene, size: (u32, u32)) -> Result<RgbaImage, String> {
        let shown = self.scene();
        self.set_scene(scene);
        let rendered = self.render(size.0, size.1);
        self.set_scene(shown);
        rendered?;
        read_backbuffer(self.context(), size.0, size.1)
    }
}

/// The scenes captured at frame 1 and at the last frame, to show that they animate.
pub const ANIMATED: [Scene; 2] = [Scene::Wave, Scene::Skinned];

/// Where screenshots go: `out.png` → `out-<what>.png`; a folder → `<folder>/<what>.png`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shots {
    dir: PathBuf,
    prefix: Option<String>,
}

impl Shots {
    /// Interprets `--screenshot PATH`: a path ending in `.png` names files, anything else is
    /// a folder (created when missing).
    pub fn new(path: &Path) -> Shots {
        let is_png = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("png"));
        if is_png && !path.is_dir() {
            let dir = path
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
            let prefix = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .filter(|s| !s.is_empty());
            Shots { dir, prefix }
        } else {
            Shots {
                dir: path.to_path_buf(),
                prefix: None,
            }
        }
    }

    /// The file for `what` (`tint`, `wave-frame1`, …).
    pub fn path(&self, what: &str) -> PathBuf {
        match &self.prefix {
            Some(p) => self.dir.join(format!("{p}-{what}.png")),
            None => self.dir.join(format!("{what}.png")),
        }
    }

    /// Renders `scene` at the game's current time ([`Shoot`]) and writes it as `what`; the
    /// game's own scene is restored. Returns the file written.
    pub fn capture(
        &self,
        game: &mut impl Shoot,
        scene: Scene,
        what: &str,
        size: (u32, u32),
    ) -> Result<PathBuf, String> {
        let mut image = game.shoot(scene, size)?;
        // The back buffer's alpha is whatever blending left; a screenshot is opaque.
        for p in image.pixels_mut() {
            p.0[3] = 255;
        }
        let path = self.path(what);
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        image
            .save(&path)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(path)
    }

    /// What is captured after frame `frame` of `last`: the animated scene at frame 1, and at
    /// the last frame every scene plus the animated one again under its frame name.
    pub fn after_frame(
        &self,
        game: &mut impl Shoot,
        frame: u64,
        last: u64,
        size: (u32, u32),
    ) -> Result<Vec<PathBuf>, String> {
        let mut written = Vec::new();
        let animated = |scene: Scene, n: u64| format!("{}-frame{n}", scene.name());
        if frame == 1 {
            for scene in ANIMATED {
                written.push(self.capture(game, scene, &animated(scene, 1), size)?);
            }
        }
        if frame == last {
            for scene in Scene::ALL {
                written.push(self.capture(game, scene, scene.name(), size)?);
            }
            if last != 1 {
                for scene in ANIMATED {
                    written.push(self.capture(game, scene, &animated(scene, last), size)?);
                }
            }
        }
        Ok(written)
    }
}

/// Reads the whole back buffer as a top-down image.
pub fn read_backbuffer(ctx: &GlContext, width: u32, height: u32) -> Result<RgbaImage, String> {
    // SAFETY: a binding on the current context (`GlContext`).
    unsafe { ctx.glow().bind_framebuffer(glow::READ_FRAMEBUFFER, None) };
    let pixels = RenderTarget::backbuffer(width, height)
        .read_rgba8(ctx)
        .map_err(|e| format!("reading the back buffer: {e}"))?;
    RgbaImage::from_raw(width, height, pixels)
        .ok_or_else(|| format!("{width}x{height} read-back has the wrong size"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_name_becomes_a_prefix_and_anything_else_a_folder() {
        let s = Shots::new(Path::new("target/demo/shot.png"));
        assert_eq!(s.path("tint"), PathBuf::from("target/demo/shot-tint.png"));
        let s = Shots::new(Path::new("out.PNG"));
        assert_eq!(s.path("cube"), PathBuf::from("./out-cube.png"));
        let s = Shots::new(Path::new("target/demo"));
        assert_eq!(
            s.path("wave-frame1"),
            PathBuf::from("target/demo/wave-frame1.png")
        );
    }
}
