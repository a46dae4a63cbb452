//! The game: GL resources, the active scene, per-frame parameter updates through the typed
//! setters, and drawing. It only needs a current `glow` context, so the same code runs in a
//! window and on a headless EGL pbuffer.

use glow::HasContext;
use shadowdusk::gl::{
    GlEffect, GlRenderTarget, GlTexture, RenderTarget, Sprite, SpriteBatch, TexelFilter,
};
use shadowdusk::params::EffectParams;

use crate::cube;
use crate::effects::{cube as cube_fx, grayscale, sepia, skinned as skinned_fx, tint, wave};
use crate::mesh::Mesh;
use crate::scene::{self, Rect, Scene};
use crate::skinned;
use crate::{font, texture};

/// A key the game reacts to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// `1`..`5`: that scene.
    Digit(u8),
    /// Tab: the next scene.
    Tab,
}

/// Every effect, loaded into GL.
struct Effects {
    tint: GlEffect,
    sepia: GlEffect,
    grayscale: GlEffect,
    wave: GlEffect,
    cube: GlEffect,
    skinned: GlEffect,
}

/// The typed parameters of every effect, set each frame.
struct Params {
    /// The animated tint of the tint scene.
    tint: tint::Params,
    /// A white tint: the untouched sprite, the text, the render-target inset.
    plain: tint::Params,
    sepia: sepia::Params,
    grayscale: grayscale::Params,
    wave: wave::Params,
    /// The cube in the back buffer.
    cube: cube_fx::Params,
    /// The same cube in the render target (another projection).
    cube_inset: cube_fx::Params,
    skinned: skinned_fx::Params,
}

/// The game state and its GL objects. Call [`Game::destroy`] with the same context.
pub struct Game {
    scene: Scene,
    time: f32,
    effects: Effects,
    params: Params,
    sprite: GlTexture,
    font: GlTexture,
    batch: SpriteBatch,
    mesh: Mesh,
    ribbon: Mesh,
    inset: GlRenderTarget,
}

fn load(gl: &glow::Context, name: &str, bytes: &[u8]) -> Result<GlEffect, String> {
    GlEffect::new(gl, bytes).map_err(|e| format!("loading effect {name}: {e}"))
}

/// A texture sampled texel for texel: the effects' sampler states choose point filtering too.
fn texture(gl: &glow::Context, width: u32, height: u32, rgba: &[u8]) -> Result<GlTexture, String> {
    GlTexture::from_rgba8(gl, width, height, rgba, TexelFilter::Nearest)
        .map_err(|e| format!("uploading a texture: {e}"))
}

fn rgba(c: [u8; 4]) -> [f32; 4] {
    c.map(|v| f32::from(v) / 255.0)
}

impl Game {
    /// Loads every effect, makes the textures and buffers, and starts on `scene`.
    pub fn new(gl: &glow::Context, scene: Scene) -> Result<Game, String> {
        let effects = Effects {
            tint: load(gl, "tint", tint::MGFX)?,
            sepia: load(gl, "sepia", sepia::MGFX)?,
            grayscale: load(gl, "grayscale", grayscale::MGFX)?,
            wave: load(gl, "wave", wave::MGFX)?,
            cube: load(gl, "cube", cube_fx::MGFX)?,
            skinned: load(gl, "skinned", skinned_fx::MGFX)?,
        };
        let sprite = texture(gl, texture::SIZE, texture::SIZE, &texture::sprite_pixels())?;
        let atlas = font::atlas();
        let font = texture(gl, atlas.width, atlas.height, &atlas.rgba)?;
        let mut game = Game {
            scene,
            time: 0.0,
            effects,
            params: Params {
                tint: tint::Params::DEFAULT,
                plain: tint::Params::DEFAULT,
                sepia: sepia::Params::DEFAULT,
                grayscale: grayscale::Params::DEFAULT,
                wave: wave::Params::DEFAULT,
                cube: cube_fx::Params::DEFAULT,
                cube_inset: cube_fx::Params::DEFAULT,
                skinned: skinned_fx::Params::DEFAULT,
            },
            sprite,
            font,
            batch: SpriteBatch::new(gl).map_err(|e| e.to_string())?,
            mesh: cube::upload(gl)?,
            ribbon: skinned::upload(gl)?,
            inset: GlRenderTarget::new(gl, scene::INSET.width, scene::INSET.height)
                .map_err(|e| e.to_string())?,
        };
        let e = &mut game.effects;
        let set = |fx: &mut GlEffect, index: usize| {
            fx.set_texture(index, Some(sprite))
                .map_err(|err| err.to_string())
        };
        set(&mut e.sepia, sepia::textures::SPRITE_TEXTURE)?;
        set(&mut e.grayscale, grayscale::textures::SPRITE_TEXTURE)?;
        set(&mut e.wave, wave::textures::SPRITE_TEXTURE)?;
        set(&mut e.cube, cube_fx::textures::CUBE_TEXTURE)?;
        game.params.plain.set_tint([1.0; 4]);
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
        match key {
            Key::Digit(d) => {
                if let Some(s) = Scene::ALL.get(usize::from(d).wrapping_sub(1)) {
                    self.scene = *s;
                }
            }
            Key::Tab => self.scene = self.scene.next(),
        }
    }

    /// Advances every animated parameter to `time` seconds, through the typed setters.
    pub fn update(&mut self, time: f32) {
        self.time = time;
        let p = &mut self.params;
        p.tint.set_tint(scene::tint_at(time));
        p.sepia.set_amount(1.0);
        p.wave.set_time(scene::wave_time(time));
        for (params, width, height) in [
            (&mut p.cube, scene::WIDTH, scene::HEIGHT),
            (&mut p.cube_inset, scene::INSET.width, scene::INSET.height),
        ] {
            params.set_world(cube::world(time));
            params.set_view(cube::view());
            params.set_projection(cube::projection(width, height));
            params.set_light_direction(cube::LIGHT_DIRECTION);
        }
        skinned::update(&mut p.skinned, time, scene::WIDTH, scene::HEIGHT);
    }

    /// Draws the active scene into the bound back buffer of `width`×`height`.
    pub fn render(&mut self, gl: &glow::Context, width: u32, height: u32) -> Result<(), String> {
        let screen = RenderTarget::backbuffer(width, height);
        if self.scene == Scene::Cube {
            // The render target first: drawing into it must not disturb the back buffer.
            self.inset.bind(gl);
            clear(gl, scene::INSET_BACKGROUND);
            let inset_target = self.inset.target();
            self.draw_cube(gl, &inset_target, true)?;
        }
        GlRenderTarget::unbind(gl, width, height);
        clear(gl, scene::BACKGROUND);
        match self.scene {
            Scene::Skinned => {
                // SAFETY: a state change on the current context.
                unsafe { gl.disable(glow::BLEND) };
                let technique = skinned_fx::Technique::SkinnedEffectOneLightTwoBones.index();
                let pass = skinned_fx::passes::skinned_effect_one_light_two_bones::P0;
                let fx = &mut self.effects.skinned;
                let applied = apply(fx, gl, &self.params.skinned, technique, pass, &screen)?;
                self.ribbon.draw(gl, &applied)?;
            }
            Scene::Cube => {
                self.draw_cube(gl, &screen, false)?;
                sprite_state(gl);
                let inset = self.inset.texture();
                self.draw_plain(gl, &screen, inset, &[sprite(scene::INSET)])?;
                let caption = font::layout(
                    "RENDER TARGET",
                    scene::INSET.x as f32,
                    scene::INSET.y as f32 - 10.0,
                    1.0,
                    [200, 200, 210, 255],
                );
                self.draw_plain(gl, &screen, self.font, &caption)?;
            }
            sprites => {
                sprite_state(gl);
                self.draw_plain(gl, &screen, self.sprite, &[sprite(scene::ORIGINAL)])?;
                self.draw_effect_sprite(gl, &screen, sprites)?;
                let mut captions = font::layout(
                    "ORIGINAL",
                    scene::ORIGINAL.x as f32,
                    scene::ORIGINAL.y as f32 - 18.0,
                    2.0,
                    [200, 200, 210, 255],
                );
                captions.extend(font::layout(
                    sprites.name(),
                    scene::EFFECT.x as f32,
                    scene::EFFECT.y as f32 - 18.0,
                    2.0,
                    [200, 200, 210, 255],
                ));
                self.draw_plain(gl, &screen, self.font, &captions)?;
            }
        }
        sprite_state(gl);
        let mut text = font::layout(&self.scene.label(), 16.0, 12.0, 3.0, [255; 4]);
        text.extend(font::layout(
            "1-6 OR TAB: SWITCH EFFECT    ESC: QUIT",
            16.0,
            height as f32 - 22.0,
            2.0,
            [150, 160, 180, 255],
        ));
        self.draw_plain(gl, &screen, self.font, &text)
    }

    /// Draws `sprites` of `texture` through `tint` with a white tint (SpriteBatch's default look).
    fn draw_plain(
        &mut self,
        gl: &glow::Context,
        target: &RenderTarget,
        texture: GlTexture,
        sprites: &[Sprite],
    ) -> Result<(), String> {
        let fx = &mut self.effects.tint;
        fx.set_texture(tint::textures::SPRITE_TEXTURE, Some(texture))
            .map_err(|e| e.to_string())?;
        let pass = apply(
            fx,
            gl,
            &self.params.plain,
            tint::Technique::Tinted.index(),
            tint::passes::tinted::P0,
            target,
        )?;
        self.batch
            .draw(gl, &pass, sprites)
            .map_err(|e| e.to_string())
    }

    /// Draws the sprite at [`scene::EFFECT`] through the scene's effect.
    fn draw_effect_sprite(
        &mut self,
        gl: &glow::Context,
        target: &RenderTarget,
        scene: Scene,
    ) -> Result<(), String> {
        let e = &mut self.effects;
        let p = &self.params;
        let pass = match scene {
            Scene::Tint => {
                e.tint
                    .set_texture(tint::textures::SPRITE_TEXTURE, Some(self.sprite))
                    .map_err(|e| e.to_string())?;
                let t = tint::Technique::Tinted.index();
                apply(
                    &mut e.tint,
                    gl,
                    &p.tint,
                    t,
                    tint::passes::tinted::P0,
                    target,
                )?
            }
            Scene::Sepia => {
                let t = sepia::Technique::Sepia.index();
                apply(
                    &mut e.sepia,
                    gl,
                    &p.sepia,
                    t,
                    sepia::passes::sepia::P0,
                    target,
                )?
            }
            Scene::Grayscale => {
                let t = grayscale::Technique::Grayscale.index();
                let pass = grayscale::passes::grayscale::P0;
                apply(&mut e.grayscale, gl, &p.grayscale, t, pass, target)?
            }
            Scene::Wave => {
                let t = wave::Technique::Wave.index();
                apply(&mut e.wave, gl, &p.wave, t, wave::passes::wave::P0, target)?
            }
            Scene::Cube | Scene::Skinned => return Ok(()),
        };
        self.batch
            .draw(gl, &pass, &[sprite(scene::EFFECT)])
            .map_err(|e| e.to_string())
    }

    /// Draws the cube's two passes (outline, then lit) into `target`.
    fn draw_cube(
        &mut self,
        gl: &glow::Context,
        target: &RenderTarget,
        inset: bool,
    ) -> Result<(), String> {
        // SAFETY: state calls on the current context. The passes set culling and depth; blending
        // is left to the caller, and the cube is opaque.
        unsafe {
            gl.disable(glow::BLEND);
        }
        let params = if inset {
            &self.params.cube_inset
        } else {
            &self.params.cube
        };
        let technique = cube_fx::Technique::LitCube.index();
        for pass in [
            cube_fx::passes::lit_cube::OUTLINE,
            cube_fx::passes::lit_cube::LIT,
        ] {
            let applied = apply(&mut self.effects.cube, gl, params, technique, pass, target)?;
            self.mesh.draw(gl, &applied)?;
        }
        Ok(())
    }

    /// Frees every GL object.
    pub fn destroy(self, gl: &glow::Context) {
        let e = self.effects;
        for fx in [e.tint, e.sepia, e.grayscale, e.wave, e.cube, e.skinned] {
            fx.destroy(gl);
        }
        self.sprite.delete(gl);
        self.font.delete(gl);
        self.batch.delete(gl);
        self.mesh.destroy(gl);
        self.ribbon.destroy(gl);
        self.inset.delete(gl);
    }
}

/// Hands the typed parameters to the effect and applies one pass.
fn apply<P: EffectParams>(
    fx: &mut GlEffect,
    gl: &glow::Context,
    params: &P,
    technique: usize,
    pass: usize,
    target: &RenderTarget,
) -> Result<shadowdusk::gl::AppliedPass, String> {
    fx.set_params(params).map_err(|e| e.to_string())?;
    fx.apply(gl, technique, pass, target)
        .map_err(|e| e.to_string())
}

fn sprite(r: Rect) -> Sprite {
    Sprite::new(r.x as f32, r.y as f32, r.width as f32, r.height as f32)
}

/// Clears colour, depth and stencil with every write mask open (a pass may have closed one).
fn clear(gl: &glow::Context, color: [u8; 4]) {
    let [r, g, b, a] = rgba(color);
    // SAFETY: state calls on the current context.
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
fn sprite_state(gl: &glow::Context) {
    // SAFETY: state calls on the current context.
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
