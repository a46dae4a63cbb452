//! Local sampler variables as the passes after `sampler_locals` look them up: each is another
//! name for one sampler within its scope. They live apart from the pass that finds them (which
//! needs `sampler_params`' parameters) so that the passes reading them, `emit` and
//! `sampler_params`, do not depend on that pass, and the sampler modules import one another in
//! one direction only.

use std::ops::Range;

/// A local sampler variable and the sampler it stands for.
#[derive(Clone, Debug)]
pub struct LocalSampler {
    /// The local's name.
    pub name: String,
    /// Where the name means the local: its declaration to the end of the function body.
    pub scope: Range<usize>,
    /// The sampler it was given (a global sampler or a sampler parameter).
    pub sampler: String,
}

/// Every local sampler variable of the effect.
#[derive(Clone, Debug, Default)]
pub struct Locals(pub(super) Vec<LocalSampler>);

impl Locals {
    /// The sampler `name` stands for at `at`: the assigned sampler for a local, else `name`.
    pub fn resolve<'a>(&'a self, name: &'a str, at: usize) -> &'a str {
        self.0
            .iter()
            .find(|l| l.name == name && l.scope.contains(&at))
            .map_or(name, |l| l.sampler.as_str())
    }

    /// The samplers that locals stand for.
    pub fn samplers(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|l| l.sampler.as_str())
    }
}
