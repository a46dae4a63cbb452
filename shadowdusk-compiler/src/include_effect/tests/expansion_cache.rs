//! The `in_process` expansion cache: what is a hit (proved with planted entries, not timing),
//! what is a miss, and that no damaged or foreign entry becomes a module.

use super::*;
use crate::include_effect::expansion_cache::{self, prune};

const INPUT: &str = r#""shaders/tint.fx", in_process"#;

/// A crate whose `in_process` expansions are cached in `<root>/expansions`.
fn cached_env(k: &Crate) -> MacroEnv {
    let mut env = k.env();
    env.expansion_cache = Some(k.root.join("expansions"));
    env
}

/// The `.rs` and `.mgfx` of the one entry whose `.rs` was written last.
fn newest_entry(env: &MacroEnv) -> (PathBuf, PathBuf) {
    let dir = env.expansion_cache.as_deref().unwrap();
    let code = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().modified().unwrap())
        .expect("an entry");
    let mgfx = code.with_extension("mgfx");
    (code, mgfx)
}

/// Rewrites an entry's module text with `edit`, with a header that checks out, as another
/// (hypothetical) compiler would have stored it: what comes back must be this text.
fn plant(code_file: &Path, edit: impl Fn(&str) -> String) {
    let text = std::fs::read_to_string(code_file).unwrap();
    let (header, code) = text.split_once('\n').unwrap();
    let mut words: Vec<&str> = header.split(' ').collect();
    let code = edit(code);
    let hash = blake3::hash(code.as_bytes()).to_hex().to_string();
    *words.last_mut().unwrap() = &hash;
    std::fs::write(code_file, format!("{}\n{code}", words.join(" "))).unwrap();
}

/// The file the module's `MGFX` includes.
fn mgfx_file(out: &TokenStream) -> PathBuf {
    let m = parse_module(out);
    let mgfx = m
        .content
        .as_ref()
        .unwrap()
        .1
        .iter()
        .find_map(|item| match item {
            syn::Item::Const(c) if c.ident == "MGFX" => Some(quote!(#c).to_string()),
            _ => None,
        })
        .unwrap();
    let lit = mgfx
        .split("include_bytes ! (")
        .nth(1)
        .expect("include_bytes");
    let lit = &lit[..lit.find(')').unwrap()];
    PathBuf::from(syn::parse_str::<LitStr>(lit.trim()).unwrap().value())
}

fn compiled_bytes(k: &Crate) -> Vec<u8> {
    pipeline::compile_file(
        &k.root.join("shaders/tint.fx"),
        &pipeline::Options::default(),
    )
    .unwrap()
    .bytes
}

#[test]
fn an_unchanged_effect_is_served_from_memory_then_from_the_folder() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("cache-hit");
    let env = cached_env(&k);
    let first = run(INPUT, &env);
    let mgfx = mgfx_file(&first);
    assert!(mgfx.starts_with(k.root.join("expansions")), "{first}");
    assert_eq!(std::fs::read(&mgfx).unwrap(), compiled_bytes(&k));
    // Rebuild tracking as without the cache: MGFX, then the effect and its include.
    assert_eq!(
        tracked(&first)[1..],
        [
            k.root.join("shaders/tint.fx").display().to_string(),
            k.root.join("shaders/common.fxh").display().to_string(),
        ]
    );
    let text = first.to_string();
    assert!(text.contains("0.125"), "{text}");
    assert_eq!(
        run(INPUT, &env).to_string(),
        text,
        "a hit is the miss's tokens"
    );

    // An entry changed behind the process's back: memory still serves the module it stored…
    let (code, _) = newest_entry(&env);
    plant(&code, |c| c.replace("0.125", "0.375"));
    assert_eq!(run(INPUT, &env).to_string(), text);
    // …and a fresh process reads the folder: the planted module comes back, so nothing was
    // compiled.
    env.forget_in_memory_expansions();
    let planted = run(INPUT, &env).to_string();
    assert!(
        planted.contains("0.375") && !planted.contains("0.125"),
        "{planted}"
    );

    // Errors are not cached: each expansion reports them.
    for _ in 0..2 {
        let (msg, _) = compile_error_of(&run(r#""shaders/bad.fx", in_process"#, &env));
        assert!(msg.contains("bad.fx"), "{msg}");
    }
}

#[test]
fn an_edited_effect_or_include_is_a_miss_with_the_new_module() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("cache-edit");
    let env = cached_env(&k);
    let first = run(INPUT, &env).to_string();

    let header = k.root.join("shaders/common.fxh");
    std::fs::write(&header, COMMON.replace("c * 2", "c * 3")).unwrap();
    let edited = run(INPUT, &env);
    assert_ne!(edited.to_string(), first);
    assert_eq!(
        std::fs::read(mgfx_file(&edited)).unwrap(),
        compiled_bytes(&k)
    );

    let effect = k.root.join("shaders/tint.fx");
    std::fs::write(&effect, TINT.replace("0.125", "0.625")).unwrap();
    let edited = run(INPUT, &env);
    assert!(edited.to_string().contains("0.625"), "{edited}");
    assert_eq!(
        std::fs::read(mgfx_file(&edited)).unwrap(),
        compiled_bytes(&k)
    );

    // Another module name is another module.
    let named = run(r#""shaders/tint.fx", name = warm, in_process"#, &env);
    assert_eq!(parse_module(&named).ident, "warm");

    // Back to the first contents: the first entry again.
    std::fs::write(&header, COMMON).unwrap();
    std::fs::write(&effect, TINT).unwrap();
    assert_eq!(run(INPUT, &env).to_string(), first);
}

#[test]
fn a_damaged_or_foreign_entry_is_a_miss_not_a_wrong_module() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("cache-damage");
    let env = cached_env(&k);
    let first = run(INPUT, &env).to_string();
    let (code, mgfx) = newest_entry(&env);
    let good_code = std::fs::read(&code).unwrap();
    let good_mgfx = std::fs::read(&mgfx).unwrap();

    let damages: [(&str, &dyn Fn()); 4] = [
        ("a torn module", &|| {
            std::fs::write(&code, &good_code[..good_code.len() / 2]).unwrap()
        }),
        ("a flipped MGFX byte", &|| {
            let mut b = good_mgfx.clone();
            let mid = b.len() / 2;
            b[mid] ^= 0x40;
            std::fs::write(&mgfx, b).unwrap();
        }),
        ("edited module text", &|| {
            let text = String::from_utf8(good_code.clone()).unwrap();
            std::fs::write(&code, text.replace("0.125", "0.375")).unwrap();
        }),
        ("a missing MGFX", &|| std::fs::remove_file(&mgfx).unwrap()),
    ];
    for (what, damage) in damages {
        damage();
        env.forget_in_memory_expansions();
        assert_eq!(run(INPUT, &env).to_string(), first, "{what}");
        assert_eq!(
            std::fs::read(&code).unwrap(),
            good_code,
            "{what}: stored again"
        );
        assert_eq!(
            std::fs::read(&mgfx).unwrap(),
            good_mgfx,
            "{what}: stored again"
        );
    }

    // Another key's entry under this key's name.
    let other = run(r#""shaders/tint.fx", name = other, in_process"#, &env);
    let (other_code, other_mgfx) = newest_entry(&env);
    assert_ne!(other_code, code);
    std::fs::copy(&other_code, &code).unwrap();
    std::fs::copy(&other_mgfx, &mgfx).unwrap();
    env.forget_in_memory_expansions();
    assert_eq!(run(INPUT, &env).to_string(), first);
    assert_ne!(other.to_string(), first);

    // The MGFX gone while the module is in memory (pruned by another build).
    std::fs::remove_file(&mgfx).unwrap();
    assert_eq!(run(INPUT, &env).to_string(), first);
    assert_eq!(std::fs::read(&mgfx).unwrap(), good_mgfx);
}

#[test]
fn a_folder_that_cannot_be_written_is_no_cache() {
    if dxc::missing_skips() {
        return;
    }
    let k = Crate::new("cache-unwritable");
    let mut env = k.env();
    let file = k.root.join("not-a-folder");
    std::fs::write(&file, "").unwrap();
    env.expansion_cache = Some(file.join("expansions"));
    let out = run(INPUT, &env);
    assert_eq!(
        embedded_bytes(&parse_module(&out)).as_deref(),
        Some(&compiled_bytes(&k)[..])
    );
}

#[test]
fn pruning_removes_the_entries_used_longest_ago() {
    let dir =
        std::env::temp_dir().join(format!("shadowdusk-expansion-prune-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
    for (i, name) in ["old", "mid", "new"].iter().enumerate() {
        for (ext, len) in [("rs", 100), ("mgfx", 300)] {
            let p = dir.join(format!("{name}.{ext}"));
            std::fs::write(&p, vec![b'x'; len]).unwrap();
            let f = std::fs::File::options().append(true).open(&p).unwrap();
            f.set_modified(base + Duration::from_secs(i as u64))
                .unwrap();
        }
    }
    // A temporary file of a write in progress is not an entry.
    std::fs::write(dir.join(".new.rs.1.0.tmp"), vec![b'x'; 1000]).unwrap();
    prune(&dir, 1200);
    assert!(dir.join("new.rs").is_file() && dir.join("mid.rs").is_file());
    prune(&dir, 1000);
    let left: Vec<bool> = [
        "old.rs", "old.mgfx", "mid.rs", "mid.mgfx", "new.rs", "new.mgfx",
    ]
    .iter()
    .map(|n| dir.join(n).is_file())
    .collect();
    assert_eq!(left, [false, false, true, true, true, true]);
    assert!(dir.join(".new.rs.1.0.tmp").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_folder_is_the_override_or_the_per_user_cache() {
    // Read only: the variable is not set in the test environment unless a developer set it.
    match std::env::var_os(expansion_cache::CACHE_ENV) {
        Some(v) if v.is_empty() => assert_eq!(expansion_cache::dir_from_env(), None),
        Some(_) => assert!(expansion_cache::dir_from_env().unwrap().is_absolute()),
        None => {
            if let Some(dir) = expansion_cache::dir_from_env() {
                assert!(dir.ends_with("shadowdusk/expansions"), "{}", dir.display());
            }
        }
    }
}
