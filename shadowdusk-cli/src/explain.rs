//! `--explain CODE`: prints one section of the compiler's `docs/error-codes.md`, as `rustc --explain` does.

/// The error index, embedded at build time.
pub const INDEX: &str = shadowdusk_compiler::diag::ERROR_INDEX;

/// The section of `index` for `code` (letter case ignored, `sd0001` finds `## SD0001`): from its
/// `## CODE` heading up to the next heading, trailing blank lines dropped. Headings inside
/// fenced code blocks (a `# comment` in a shell example) do not end a section.
pub fn section<'a>(index: &'a str, code: &str) -> Option<&'a str> {
    let code = code.trim();
    if code.is_empty() {
        return None;
    }
    let mut start = None;
    let mut in_fence = false;
    let mut offset = 0;
    for line in index.split_inclusive('\n') {
        let text = line.trim_end();
        if text.starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && text.starts_with('#') {
            if let Some(s) = start {
                return Some(index[s..offset].trim_end());
            }
            if text
                .strip_prefix("## ")
                .is_some_and(|h| h.trim().eq_ignore_ascii_case(code))
            {
                start = Some(offset);
            }
        }
        offset += line.len();
    }
    start.map(|s| index[s..].trim_end())
}

/// The SD0030 line for a code the index does not list.
pub fn unknown_code(code: &str) -> String {
    crate::args::command_line_error(
        None,
        &format!("no such error code `{code}`; see docs/error-codes.md"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args;
    use shadowdusk_compiler::diag::Code;

    #[test]
    fn every_registered_code_has_a_section() {
        for code in Code::ALL {
            let s = section(INDEX, code.as_str())
                .unwrap_or_else(|| panic!("no `## {code}` section in docs/error-codes.md"));
            assert!(s.starts_with(&format!("## {code}\n")), "{s}");
            assert!(s.contains("\nExample:"), "{code}: no `Example:`\n{s}");
            assert!(s.contains("\nFix: "), "{code}: no `Fix:`\n{s}");
        }
    }

    #[test]
    fn letter_case_and_spaces_do_not_matter() {
        let upper = section(INDEX, "SD0001").unwrap();
        assert_eq!(section(INDEX, "sd0001"), Some(upper));
        assert_eq!(section(INDEX, " Sd0001 "), Some(upper));
        assert!(upper.contains("#include \"missing.fxh\""), "{upper}");
    }

    #[test]
    fn unknown_or_partial_codes_have_no_section() {
        for bad in ["", "SD9999", "SD000", "SD00010", "Preprocessing", "#"] {
            assert_eq!(section(INDEX, bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_section_ends_at_the_next_heading_but_not_at_a_comment_in_an_example() {
        let md = "# Title\n\n# Group\n\n## AB0001\nfirst\n\n```sh\n# a shell comment\nrun\n```\n\nFix: x.\n\n\
                  ## AB0002\nsecond\n\n# Next group\n\n## AB0003\nthird\n";
        assert_eq!(
            section(md, "ab0001"),
            Some("## AB0001\nfirst\n\n```sh\n# a shell comment\nrun\n```\n\nFix: x.")
        );
        assert_eq!(section(md, "AB0002"), Some("## AB0002\nsecond"));
        assert_eq!(section(md, "AB0003"), Some("## AB0003\nthird"));
        assert_eq!(section(md, "Group"), None);
    }

    #[test]
    fn sections_follow_the_registry_order() {
        let at = |c: &Code| INDEX.find(&format!("\n## {c}\n")).unwrap();
        for pair in Code::ALL.windows(2) {
            assert!(at(&pair[0]) < at(&pair[1]), "{} after {}", pair[0], pair[1]);
        }
    }

    /// The SD0030 example is a real command line the parser rejects with SD0030.
    #[test]
    fn the_command_line_example_is_rejected_with_sd0030() {
        let s = section(INDEX, "SD0030").unwrap();
        let line = s
            .lines()
            .find(|l| l.starts_with("shadowdusk "))
            .expect("a `shadowdusk ...` line in the SD0030 example");
        let argv: Vec<String> = line.split_whitespace().skip(1).map(String::from).collect();
        match args::parse(&argv) {
            Err(msg) => assert!(msg.contains("error SD0030: "), "{msg}"),
            Ok(_) => panic!("`{line}` was accepted"),
        }
    }

    #[test]
    fn explain_parses_with_or_without_equals() {
        for argv in [
            vec!["--explain", "sd0210"],
            vec!["--EXPLAIN", "sd0210"],
            vec!["--explain=sd0210"],
        ] {
            let argv: Vec<String> = argv.into_iter().map(String::from).collect();
            match args::parse(&argv) {
                Ok(args::Parsed::Explain(code)) => assert_eq!(code, "sd0210"),
                _ => panic!("{argv:?} is no `--explain`"),
            }
        }
        for argv in [
            vec!["--explain"],
            vec!["--explain="],
            vec!["--explain", "SD0001", "effect.fx"],
        ] {
            let argv: Vec<String> = argv.into_iter().map(String::from).collect();
            match args::parse(&argv) {
                Err(msg) => assert!(msg.starts_with("error SD0030: "), "{msg}"),
                Ok(_) => panic!("{argv:?} was accepted"),
            }
        }
    }

    #[test]
    fn unknown_code_message_names_the_code_and_the_index() {
        assert_eq!(
            unknown_code("XY1234"),
            "error SD0030: no such error code `XY1234`; see docs/error-codes.md"
        );
    }
}
