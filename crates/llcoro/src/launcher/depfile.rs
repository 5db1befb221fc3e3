//! Dependency files (`-MD`, `-MMD`): written by the source step, which keeps every dependency flag.
//! clang names the file and its target after the output, which for the source step is the
//! temporary IR file; they are named after the real object instead, as clang would have.

use super::classify::{Arg, Role};
use std::ffi::OsString;
use std::path::Path;

/// A dependency-file option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dep {
    /// -MD or -MMD: write a dependency file while compiling.
    Write,
    /// -MT or -MQ.
    Target,
    /// -MF.
    File,
    /// -MP, -MG, -MV.
    Flag,
}

/// The options that name the dependency file and its target after `output` (the object), added to
/// `source_args` when the command writes one and does not name them itself.
pub(super) fn name_after_object(parsed: &[Arg], output: &OsString, source_args: &mut Vec<OsString>) {
    let has = |d: Dep| parsed.iter().any(|a| a.role == Role::Dep(d));
    if !has(Dep::Write) {
        return;
    }
    if !has(Dep::Target) {
        source_args.push("-MQ".into());
        source_args.push(output.clone());
    }
    if !has(Dep::File) {
        source_args.push("-MF".into());
        source_args.push(Path::new(output).with_extension("d").into_os_string());
    }
}

#[cfg(test)]
mod tests {
    use crate::launcher::testing::{joined_words, steps};

    #[test]
    fn default_dependency_target_and_file_follow_the_object() {
        let s = steps("clang++ -MMD -c dir/a.cc -o out/a.o");
        let src = joined_words(&s.source_args);
        assert!(src.ends_with("-MMD -MQ out/a.o -MF out/a.d"), "{src}");
        // No -o: clang's default object name, in the working directory.
        let s = steps("clang -MD -c dir/b.c");
        assert_eq!(s.output, "b.o");
        assert!(joined_words(&s.source_args).ends_with("-MQ b.o -MF b.d"));
        // Given ones are kept as they are.
        let s = steps("clang -MD -MFdeps.d -MQ$x -c b.c -ob.o");
        assert_eq!(s.output, "b.o");
        assert_eq!(joined_words(&s.source_args), "-MD -MFdeps.d -MQ$x");
    }
}
