//! The game: GL resources, the active scene, per-frame parameter updates through the typed
//! setters, and drawing. It only needs a `GlContext`, so the same code runs in a window and on
//! a headless EGL pbuffer. Every effect is typed by its generated module (`GlEffect<tint::Effect>`),
//! so a pass, texture slot or `Params` of the wrong effect would not compile. With hot reload
//! ([`Watch`]) each effect follows its source file and is polled once a frame
//! ([`Game::poll_shaders`]); the label shows the newest reload, refused edit or compile error.

use glow::HasContext;
use shadowdusk::gl::{
    AppliedPass, GlContext, GlEffect, GlRenderTarget, GlTexture, RenderTarget, Sprite, SpriteBatch,
    TexelFilter,
};
use shadowdusk::{Effect, Pass};

use crate::effect_list::{Effects, Gl};
use crate::effects::{cube as cube_fx, grayscale, sepia, skinned as skinned_fx, tint, wave};
use crate::frame::{self, sprite, Params};
use crate::hot::{Event, Status, Watch};
use crate::mesh::Mesh;
use crate::scene::{self, Scene};
use crate::{cube, font, skinned, texture};

pub use crate::frame::Key;

/// The game state and its GL objects, which are released when it is dropped (on its context,
/// which must then be current).
pub struct Game {
    ctx: GlContext,
    scene: Scene,
    time: f32,
    effects: Effects<Gl>,
    params: Params,
    sprite: GlTexture,
    font: GlTexture,
    batch: SpriteBatch,
    mesh: Mesh,
    ribbon: Mesh,
    inset: GlRenderTarget,
    /// The hot-reload label; `None` without hot reload.
    status: Option<Status>,
}

/// A texture sampled texel for texel: the effects' sampler states choose point filtering too.
fn texture(ctx: &GlContext, width: u32, height: u32, rgba: &[u8]) -> Result<GlTexture, String> {
    GlTexture::from_rgba8(ctx, width, height, rgba, TexelFilter::Nearest)
        .map_err(|e| format!("uploading a texture: {e}"))
}

fn rgba(c: [u8; 4]) -> [f32; 4] {
    c.map(|v| f32::from(v) / 255.0)
}

impl Game {
    /// Loads every effect as built, makes the textures and buffers, and starts on `scene`.
    pub fn new(ctx: &GlContext, scene: Scene) -> Result<Game, String> {
        Game::load(ctx, scene, &Watch::Off)
    }

    /// [`Game::new`], every effect following the file `watch` says (`--hot`): call
    /// [`Game::poll_shaders`] once a frame.
    pub fn load(ctx: &GlContext, scene: Scene, watch: &Watch) -> Result<Game, String> {
        let mut effects = Effects::<Gl>::load(ctx, watch)?;
        let status = watch.describe::<tint::Effect>().map(|watching| {
            eprintln!("example-game: hot reload: watching the effects' sources in {watching}");
            Status::new(watching)
        });
        let sprite = texture(ctx, texture::SIZE, texture::SIZE, &texture::sprite_pixels())?;
        let atlas = font::atlas();
        let font = texture(ctx, atlas.width, atlas.height, &atlas.rgba)?;
        // The effects that always sample the sprite keep a handle to it from now on.
        effects
            .sepia
            .set_texture(sepia::textures::SPRITE_TEXTURE, Some(&sprite))
            .map_err(|e| e.to_string())?;
        effects
            .grayscale
            .set_texture(grayscale::textures::SPRITE_TEXTURE, Some(&sprite))
            .map_err(|e| e.to_string())?;
        effects
            .wave
            .set_texture(wave::textures::SPRITE_TEXTURE, Some(&sprite))
            .map_err(|e| e.to_string())?;
        effects
            .cube
            .set_texture(cube_fx::textures::CUBE_TEXTURE, Some(&sprite))
            .map_err(|e| e.to_string())?;
        let mut game = Game {
            ctx: ctx.clone(),
            scene,
            time: 0.0,
            effects,
            params: Params::new(),
            sprite,
            font,
            batch: SpriteBatch::new(ctx).map_err(|e| e.to_string())?,
            mesh: cube::upload(ctx)?,
            ribbon: skinned::upload(ctx)?,
            inset: GlRenderTarget::new(ctx, scene::INSET.width, scene::INSET.height)
                .map_err(|e| e.to_string())?,
            status,
        };
        game.update(0.0);
        Ok(game)
    }

    /// The scene on screen.
    pub fn scene(&self) -> Scene {
        self.scene
    }

    /// Shows `scene`.
    pub fn set_scene(&mut self, scene: Scene) {
        self.scene = scene;
    }

    /// Reacts to a key press.
    pub fn key(&mut self, key: Key) {
        self.scene = key.apply(self.scene);
    }

    /// Advances every animated parameter to `time` seconds, through the typed setters.
    pub fn update(&mut self, time: f32) {
        self.time = time;
        self.params.update(time);
    }

    /// Swaps in every finished recompile of an effect's source (hot reload; nothing happens
    /// without it). Call it once a frame with the context current, before drawing: the frame
    /// drawn next uses what was swapped in. Returns what was found (reloads, and edits refused
    /// or failed, which keep the running effect), which the label shows and stderr gets in full.
    pub fn poll_shaders(&mut self) -> Vec<Event> {
        let Some(status) = &mut self.status else {
            return Vec::new();
        };
        self.effects.poll(status, self.time)
    }

    /// The hot-reload label, when hot reload is on.
    pub fn hot_status(&self) -> Option<&Status> {
        self.status.as_ref()
    }

    /// The context the game draws with.
    pub fn context(&self) -> &GlContext {
        &self.ctx
    }

    /// Draws the active scene into the bound back buffer of `width`×`height`.
    pub fn render(&mut self, width: u32, height: u32) -> Result<(), String> {
        let ctx = self.ctx.clone();
        let screen = RenderTarget::backbuffer(width, height);
        if self.scene == Scene::Cube {
            // The render target first: drawing into it must not disturb the back buffer.
            self.inset.bind();
            clear(&ctx, scene::INSET_BACKGROUND);
            let inset_target = self.inset.target();
            self.draw_cube(&inset_target, true)?;
        }
        GlRenderTarget::unbind(&ctx, width, height);
        clear(&ctx, scene::BACKGROUND);
        // Handles to the textures drawn below (a reference count each, no copy of texels).
        let (sprite_texture, font) = (self.sprite.clone(), self.font.clone());
        match self.scene {
            Scene::Skinned => {
                // SAFETY: a state change on the current context (`GlContext`).
                unsafe { ctx.glow().disable(glow::BLEND) };
                let pass = skinned_fx::passes::skinned_effect_one_light_two_bones::P0;
                let fx = &mut self.effects.skinned;
                let applied = apply(fx, &self.params.skinned, pass, &screen)?;
                self.ribbon.draw(&applied)?;
            }
            Scene::Cube => {
                self.draw_cube(&screen, false)?;
                sprite_state(&ctx);
                let inset = self.inset.texture().clone();
                self.draw_plain(&screen, &inset, &[sprite(scene::INSET)])?;
                self.draw_plain(&screen, &font, &frame::inset_caption())?;
            }
            sprites => {
                sprite_state(&ctx);
                self.draw_plain(&screen, &sprite_texture, &[sprite(scene::ORIGINAL)])?;
                self.draw_effect_sprite(&screen, sprites)?;
                self.draw_plain(&screen, &font, &frame::sprite_captions(sprites))?;
            }
        }
        sprite_state(&ctx);
        let mut text = frame::overlay(self.scene, height);
        if let Some(status) = &self.status {
            text.extend(status.sprites(width));
        }
        self.draw_plain(&screen, &font, &text)
    }

    /// Draws `sprites` of `texture` through the fixed `tint` with a white tint (SpriteBatch's
    /// default look).
    fn draw_plain(
        &mut self,
        target: &RenderTarget,
        texture: &GlTexture,
        sprites: &[Sprite],
    ) -> Result<(), String> {
        let fx = &mut self.effects.plain;
        fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))
            .map_err(|e| e.to_string())?;
        // SpriteBatch's vertex shader for the pixel-only pass, whatever the cube left bound.
        self.batch.begin();
        let pass = apply(fx, &self.params.plain, tint::passes::tinted::P0, target)?;
        self.batch.draw(&pass, sprites).map_err(|e| e.to_string())
    }

    /// Draws the sprite at [`scene::EFFECT`] through the scene's effect.
    fn draw_effect_sprite(&mut self, target: &RenderTarget, scene: Scene) -> Result<(), String> {
        let e = &mut self.effects;
        let p = &self.params;
        self.batch.begin();
        let pass = match scene {
            Scene::Tint => {
                e.tint
                    .set_texture(tint::textures::SPRITE_TEXTURE, Some(&self.sprite))
                    .map_err(|e| e.to_string())?;
                apply(&mut e.tint, &p.tint, tint::passes::tinted::P0, target)?
            }
            Scene::Sepia => apply(&mut e.sepia, &p.sepia, sepia::passes::sepia::P0, target)?,
            Scene::Grayscale => {
                let pass = grayscale::passes::grayscale::P0;
                apply(&mut e.grayscale, &p.grayscale, pass, target)?
            }
            Scene::Wave => apply(&mut e.wave, &p.wave, wave::passes::wave::P0, target)?,
            Scene::Cube | Scene::Skinned => return Ok(()),
        };
        self.batch
            .draw(&pass, &[sprite(scene::EFFECT)])
            .map_err(|e| e.to_string())
    }

    /// Draws the cube's two passes (outline, then lit) into `target`.
    fn draw_cube(&mut self, target: &RenderTarget, inset: bool) -> Result<(), String> {
        // SAFETY: state calls on the current context (`GlContext`). The passes set culling and
        // depth; blending is left to the caller, and the cube is opaque.
        unsafe {
            self.ctx.glow().disable(glow::BLEND);
        }
        let params = if inset {
            &self.params.cube_inset
        } else {
            &self.params.cube
        };
        // The technique's passes in order: outline, then lit.
        for &pass in cube_fx::Technique::LitCube.passes() {
            let applied = apply(&mut self.effects.cube, params, pass, target)?;
            self.mesh.draw(&applied)?;
        }
        Ok(())
    }
}

/// Hands the typed parameters to the effect and applies one of its passes.
fn apply<'a, E: Effect>(
    fx: &'a mut GlEffect<E>,
    params: &E::Params,
    pass: Pass<E>,
    target: &RenderTarget,
) -> Result<AppliedPass<'a>, String> {
    fx.set_params(params);
    fx.apply(pass, target).map_err(|e| e.to_string())
}

/// Clears colour, depth and stencil with every write mask open (a pass may have closed one).
fn clear(ctx: &GlContext, color: [u8; 4]) {
    let [r, g, b, a] = rgba(color);
    let gl = ctx.glow();
    // SAFETY: state calls on the current context (`GlContext`).
    unsafe {
        gl.disable(glow::SCISSOR_TEST);
        gl.color_mask(true, true, true, true);
        gl.depth_mask(true);
        gl.stencil_mask(0xFFFF_FFFF);
        gl.clear_color(r, g, b, a);
        gl.clear_depth_f64(1.0);
        gl.clear_stencil(0);
        gl.clear(glow::COLOR_BUFFER_BIT | glow::DEPTH_BUFFER_BIT | glow::STENCIL_BUFFER_BIT);
    }
}

/// What `SpriteBatch.Begin()` sets: premultiplied alpha blending, no depth test; culling off
/// (SpriteBatch's default culls counter-clockwise faces, which its quads never are).
fn sprite_state(ctx: &GlContext) {
    let gl = ctx.glow();
    // SAFETY: state calls on the current context (`GlContext`).
    unsafe {
        gl.enable(glow::BLEND);
        gl.blend_equation(glow::FUNC_ADD);
        gl.blend_func(glow::ONE, glow::ONE_MINUS_SRC_ALPHA);
        gl.disable(glow::DEPTH_TEST);
        gl.disable(glow::STENCIL_TEST);
        gl.disable(glow::CULL_FACE);
        gl.polygon_mode(glow::FRONT_AND_BACK, glow::FILL);
    }
}
