//! Hot reload in Bevy (feature `hot-reload`, for debug builds): [`HotReloadPlugin<E>`] watches
//! the files the build compiled `E` from, recompiles it on a background thread with the build's
//! options and the wgpu target (`shadowdusk::hot::Recompiles`, the compiler and DXC found at
//! run time as the build finds them), and puts the new shaders in Bevy's `Assets<Shader>`
//! under the handles the pipelines use, so Bevy rebuilds those pipelines for the next frame.
//!
//! Bevy's pipeline layouts, vertex buffers and states were specialized from the build's
//! tables (`E::WGPU`), so a recompile is taken only when just its code changed: its layout is
//! `E::LAYOUT` (registers, parameters, texture units, techniques) and its wgpu interface
//! (bindings, vertex inputs, varyings) and pass and sampler states are the build's. Anything
//! else is refused, naming what changed; a compile error is reported as the build prints it.
//! Either way the previous shaders keep drawing. [`HotReload<E>`] holds the last outcome.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use bevy::prelude::*;
use bevy::shader::Shader;
use shadowdusk::hot::{Recompiled, Recompiles, Reload};
use shadowdusk::mgfx::wgpu::{WgpuBindingKind, WgpuShader};
use shadowdusk::mgfx::VertexElementUsage;
use shadowdusk::wgsl::{BindingKind, Stage, TextureDimension, Varying, WgslShader};
use shadowdusk::Effect;

use crate::shaders::{self, Code};

/// Follows effect `E`'s source files in a Bevy app; see the [module docs](self). Add it with
/// (after) `EffectPlugin::<E>`.
pub struct HotReloadPlugin<E> {
    source: Option<PathBuf>,
    _effect: PhantomData<fn() -> E>,
}

impl<E> HotReloadPlugin<E> {
    /// Watches the files the build read (`E::SOURCE` and its includes).
    pub fn new() -> Self {
        HotReloadPlugin {
            source: None,
            _effect: PhantomData,
        }
    }

    /// Watches `source` instead (a copy of the shaders, say).
    pub fn watching(source: impl Into<PathBuf>) -> Self {
        HotReloadPlugin {
            source: Some(source.into()),
            _effect: PhantomData,
        }
    }
}

impl<E> Default for HotReloadPlugin<E> {
    fn default() -> Self {
        Self::new()
    }
}

/// The hot reload of effect `E`: what the last recompile came to.
#[derive(Resource)]
pub struct HotReload<E> {
    recompiles: Mutex<Recompiles<E>>,
    source: PathBuf,
    last: Option<Reload>,
    finished: usize,
    reloads: usize,
}

impl<E> HotReload<E> {
    /// What the last finished recompile came to (`None` before the first).
    pub fn last(&self) -> Option<&Reload> {
        self.last.as_ref()
    }

    /// How many recompiles finished (swapped in, refused or failed).
    pub fn finished(&self) -> usize {
        self.finished
    }

    /// How many recompiles were swapped in.
    pub fn reloads(&self) -> usize {
        self.reloads
    }

    /// The file watched.
    pub fn source(&self) -> &Path {
        &self.source
    }
}

impl<E: Effect> Plugin for HotReloadPlugin<E> {
    fn build(&self, app: &mut App) {
        let started = match &self.source {
            None => Recompiles::<E>::new(),
            Some(source) => Recompiles::<E>::watching(source),
        };
        match started {
            Ok(recompiles) => {
                let source = recompiles.source().to_path_buf();
                app.insert_resource(HotReload::<E> {
                    recompiles: Mutex::new(recompiles),
                    source,
                    last: None,
                    finished: 0,
                    reloads: 0,
                })
                .add_systems(Update, poll::<E>);
            }
            Err(e) => error!("{}: hot reload does not start: {e}", E::NAME),
        }
    }
}

/// Takes the newest finished recompile, if any, into Bevy's shader assets.
fn poll<E: Effect>(mut hot: ResMut<HotReload<E>>, mut assets: ResMut<Assets<Shader>>) {
    let recompiles = hot.recompiles.get_mut().unwrap_or_else(|e| e.into_inner());
    let Some(result) = recompiles.poll() else {
        return;
    };
    let source = hot.source.display().to_string();
    let made = result.and_then(|new| {
        let code = code::<E>(&new).map_err(|change| {
            Reload::Refused(format!(
                "{source}: the new effect does not fit the pipelines Bevy made from the build \
                 ({change}); the previous shaders stay until the game is rebuilt"
            ))
        })?;
        shaders::made::<E>(&code)
            .into_iter()
            .collect::<Result<Vec<_>, String>>()
            .map_err(|e| Reload::Failed(format!("{source}: {e}")))
    });
    let outcome = match made {
        Ok(made) => {
            for (handle, shader) in made {
                // A fixed (UUID) id cannot be stale, so the insert cannot fail.
                drop(assets.insert(handle.id(), shader));
            }
            hot.reloads += 1;
            info!("{}: reloaded from {source}", E::NAME);
            Reload::Reloaded
        }
        Err(reload) => {
            if let Reload::Refused(why) | Reload::Failed(why) = &reload {
                warn!("{why}");
            }
            reload
        }
    };
    hot.last = Some(outcome);
    hot.finished += 1;
}

/// The new code of each of `E`'s shaders, if only code changed; else what else did.
fn code<E: Effect>(new: &Recompiled) -> Result<Vec<Code<'static>>, String> {
    let built = E::WGPU.ok_or("the build has no wgpu part")?;
    if new.wgpu.shaders.len() != built.shaders.len() {
        return Err("its number of shaders changed".into());
    }
    for (t, passes) in built.techniques.iter().enumerate() {
        for (p, pass) in passes.iter().enumerate() {
            let Some(now) = new.effect.techniques.get(t).and_then(|t| t.passes.get(p)) else {
                return Err(format!("pass {} is gone", pass.name));
            };
            let index = |i: i32| usize::try_from(i).ok();
            let same = index(now.vertex_shader) == pass.vertex
                && index(now.pixel_shader) == pass.pixel
                && now.blend == pass.blend
                && now.depth_stencil == pass.depth_stencil
                && now.rasterizer == pass.rasterizer;
            if !same {
                return Err(format!(
                    "pass {}'s shaders or render states changed",
                    pass.name
                ));
            }
        }
    }
    built
        .shaders
        .iter()
        .zip(&new.wgpu.shaders)
        .enumerate()
        .map(|(i, (was, now))| {
            interface_unchanged(was, now, new.effect.shaders.get(i))
                .map_err(|what| format!("shader {i}'s {what} changed"))?;
            let varyings = was
                .varyings
                .iter()
                .zip(&now.varyings)
                .map(|(v, n)| Varying {
                    location_at: n.location_at,
                    ..*v
                })
                .collect();
            Ok(Code {
                wgsl: Cow::Owned(now.wgsl.clone()),
                varyings: Cow::Owned(varyings),
            })
        })
        .collect()
}

/// Whether `now` has `was`'s interface (and `model`, its MGFX shader, the same sampler
/// states); else which part changed.
fn interface_unchanged(
    was: &WgslShader,
    now: &WgpuShader,
    model: Option<&shadowdusk::mgfx::Shader>,
) -> Result<(), &'static str> {
    let stage = match was.stage {
        Stage::Vertex => "vertex",
        Stage::Pixel => "pixel",
    };
    if now.stage != stage || now.entry != was.entry {
        return Err("stage or entry point");
    }
    let bindings = was.bindings.len() == now.bindings.len()
        && was.bindings.iter().zip(&now.bindings).all(|(w, n)| {
            w.binding == n.binding
                && match (&w.kind, &n.kind) {
                    (BindingKind::Uniform { size, .. }, WgpuBindingKind::Uniform { size: s }) => {
                        size == s
                    }
                    (
                        BindingKind::Texture { dimension, .. },
                        WgpuBindingKind::Texture { dimension: d },
                    ) => TextureDimension::from_name(d) == Some(*dimension),
                    (BindingKind::Sampler { slot, state }, WgpuBindingKind::Sampler) => model
                        .and_then(|m| {
                            m.samplers
                                .iter()
                                .find(|s| u32::from(s.texture_slot) == *slot)
                        })
                        .is_some_and(|s| s.state == *state),
                    _ => false,
                }
        });
    if !bindings {
        return Err("bindings or sampler states");
    }
    let inputs = was.vertex_inputs.len() == now.vertex_inputs.len()
        && was
            .vertex_inputs
            .iter()
            .zip(&now.vertex_inputs)
            .all(|(w, n)| {
                VertexElementUsage::from_d3d9(&n.usage) == Some(w.usage)
                    && w.index == n.index
                    && w.location == n.location
                    && format!("{:?}", w.format) == n.format
            });
    if !inputs {
        return Err("vertex inputs");
    }
    let varyings =
        was.varyings.len() == now.varyings.len()
            && was.varyings.iter().zip(&now.varyings).all(|(w, n)| {
                w.semantic == n.semantic && w.location == n.location && w.flat == n.flat
            });
    if !varyings {
        return Err("varyings");
    }
    Ok(())
}
