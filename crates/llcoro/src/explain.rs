//! `llcoro explain CODE`: for every diagnostic code llcoro can emit, what it means, a minimal input
//! that triggers it, and how to fix it (as `rustc --explain` does). The test in `tests/explain.rs`
//! finds every code in the source and checks that it is here, and that each example, run through
//! llcoro, reports its code.

/// One diagnostic code, explained.
pub struct Explanation {
    /// The code as findings carry it (`Finding::error.code`), such as `coro-missing-end`.
    pub code: &'static str,
    /// `error` (the input is refused) or `warning` (it is lowered anyway).
    pub severity: &'static str,
    /// One line, for the list of codes.
    pub summary: &'static str,
    /// What the finding says about the input, and why llcoro reports it.
    pub meaning: &'static str,
    /// A minimal `.ll` input that triggers the code; empty when no input should (a bug in llcoro).
    pub example: &'static str,
    /// How to change the input (or the front end that wrote it) so that the finding goes.
    pub fix: &'static str,
}

/// The intrinsics a coroutine example calls (LLVM 19 spelling).
macro_rules! coro_decls {
    () => {
        "\ndeclare token @llvm.coro.id(i32, ptr, ptr, ptr)\ndeclare i64 @llvm.coro.size.i64()\n\
         declare ptr @llvm.coro.begin(token, ptr)\ndeclare i8 @llvm.coro.suspend(token, i1)\n\
         declare ptr @llvm.coro.free(token, ptr)\ndeclare i1 @llvm.coro.end(ptr, i1, token)\n\
         declare ptr @malloc(i64)\ndeclare void @free(ptr)\ndeclare void @use(i32)\n"
    };
}

/// The tail every coroutine example shares: the resume, cleanup and suspend blocks.
/// A returned-continuation coroutine `@f` up to its first suspend: its return type, parameters and
/// the prototype operand of its coro.id.retcon.
macro_rules! retcon_head {
    ($ret:literal, $params:literal, $proto:literal) => {
        concat!(
            "define ",
            $ret,
            " @f(",
            $params,
            ") {\nentry:\n  %id = call token @llvm.coro.id.retcon(i32 8, i32 8, ptr %buf, ptr ",
            $proto,
            ", ptr @alloc, ptr @dealloc)\n  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)\n  "
        )
    };
}

/// The end of `retcon_head!`'s coroutine, `coro.end` with the results token `$results`.
macro_rules! retcon_tail {
    ($results:literal) => {
        concat!("  %u = call i1 @llvm.coro.end(ptr %hdl, i1 false, token ", $results, ")\n  unreachable\n}\n\n")
    };
}

macro_rules! retcon_decls {
    () => {
        concat!(
            "declare ptr @alloc(i64)\ndeclare void @dealloc(ptr)\n",
            "declare token @llvm.coro.id.retcon(i32, i32, ptr, ptr, ptr, ptr)\n",
            "declare ptr @llvm.coro.begin(token, ptr)\ndeclare i1 @llvm.coro.suspend.retcon.i1(...)\n",
            "declare i1 @llvm.coro.end(ptr, i1, token)\n"
        )
    };
}

/// An async coroutine `@f` (context alignment `$align`) up to its suspend, then `$before`.
macro_rules! async_head {
    ($align:literal, $before:literal) => {
        concat!(
            "@f_fp = constant <{ i32, i32 }> <{ i32 0, i32 32 }>\n\n",
            "define void @go(ptr %fn, ptr %ctx) {\n  call void %fn(ptr %ctx)\n  ret void\n}\n\n",
            "define ptr @proj(ptr %ctx) {\n  ret ptr %ctx\n}\n\n",
            "define void @f(ptr %ctx) presplitcoroutine {\nentry:\n",
            "  %id = call token @llvm.coro.id.async(i32 32, i32 ",
            $align,
            ", i32 0, ptr @f_fp)\n  %hdl = call ptr @llvm.coro.begin(token %id, ptr null)\n",
            $before
        )
    };
}

/// `async_head!`'s suspend with the resume function `$resume` and projection `$proj`, `$after` it,
/// and the end with the operands `$end` after the handle and the flag.
macro_rules! async_tail {
    ($resume:literal, $proj:literal, $after:literal, $end:literal) => {
        concat!(
            "  %r = call ptr @llvm.coro.async.resume()\n",
            "  %s = call { ptr } (i32, ptr, ptr, ...) @llvm.coro.suspend.async(i32 0, ptr ",
            $resume,
            ", ptr ",
            $proj,
            ", ptr @go, ptr %r, ptr %ctx)\n",
            $after,
            "  call i1 (ptr, i1, ...) @llvm.coro.end.async(ptr %hdl, i1 false",
            $end,
            ")\n  unreachable\n}\n\n",
            "declare token @llvm.coro.id.async(i32, i32, i32, ptr)\ndeclare ptr @llvm.coro.begin(token, ptr)\n",
            "declare ptr @llvm.coro.async.resume()\ndeclare { ptr } @llvm.coro.suspend.async(i32, ptr, ptr, ...)\n",
            "declare i1 @llvm.coro.end.async(ptr, i1, ...)\n"
        )
    };
}

macro_rules! coro_tail {
    () => {
        "resume:\n  br label %cleanup\ncleanup:\n  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)\n  \
         call void @free(ptr %m)\n  br label %suspend\nsuspend:\n  \
         %e = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)\n  ret ptr %hdl\n}\n"
    };
}

/// The head of a coroutine example: frame allocated, one suspend.
macro_rules! coro_head {
    ($attr:literal) => {
        concat!(
            "define ptr @f(i32 %n) ",
            $attr,
            "{\nentry:\n  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)\n  \
             %size = call i64 @llvm.coro.size.i64()\n  %mem = call ptr @malloc(i64 %size)\n  \
             %hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)\n"
        )
    };
}

macro_rules! suspend_once {
    () => {
        "  %s = call i8 @llvm.coro.suspend(token none, i1 false)\n  \
         switch i8 %s, label %suspend [i8 0, label %resume\n                                i8 1, label %cleanup]\n"
    };
}

macro_rules! kxs_decls {
    () => {
        "\ndeclare void @__kxs_suspend_point(i32)\ndeclare void @__kxs_begin(ptr, ptr)\ndeclare i32 @next()\n"
    };
}

macro_rules! stackless_decls {
    () => {
        "\ndeclare token @llvm.gc.frame.layout(ptr, i32, i32)\ndeclare token @llvm.gc.frame.statepoint(...)\n\
         declare token @llvm.gc.frame.accessor(token)\ndeclare void @llvm.gc.frame.save(token, ...)\n\
         declare i32 @llvm.gc.frame.load.i32(token, i32)\ndeclare { ptr, i32 } @callee(ptr, i32)\n"
    };
}

macro_rules! stackless_ret {
    ($v:literal) => {
        concat!(
            "  %a = insertvalue { ptr, i32 } poison, ptr %sp_arg, 0\n  %b = insertvalue { ptr, i32 } %a, i32 ",
            $v,
            ", 1\n  ret { ptr, i32 } %b\n}\n"
        )
    };
}

const BUG: &str = "This is a bug in llcoro, not a problem with the input: no input should trigger it.";
const REPORT: &str = "Report it with the input file (and the llcoro version); meanwhile lower that file with LLVM's \
                      own passes (`opt -passes='coro-early,coro-split,coro-cleanup'`).";

/// Every code llcoro and llir can report, grouped by the part that reports it.
pub const EXPLANATIONS: &[Explanation] = &[
    // The parser (crates/llir).
    Explanation {
        code: "parse-token",
        severity: "error",
        summary: "a character or word that is no LLVM IR token",
        meaning: "The lexer found bytes it cannot make a token of: a stray character, a malformed number \
                  or an unterminated string.",
        example: "define i32 @f() {\nentry:\n  %x = add i32 1, 2 `\n  ret i32 %x\n}\n",
        fix: "Remove the character or complete the token. Files written by clang, opt or rustc do not \
              contain such bytes; a file edited by hand or cut short may.",
    },
    Explanation {
        code: "parse-expected",
        severity: "error",
        summary: "a token where the grammar wants another",
        meaning: "The tokens are valid but not in an order LLVM IR allows: the message says what was \
                  expected at the caret.",
        example: "define i32 @f() {\nentry:\n  %x = add i32 1 2\n  ret i32 %x\n}\n",
        fix: "Write what the message asks for (here the comma between the operands).",
    },
    Explanation {
        code: "parse-eof",
        severity: "error",
        summary: "the file ends in the middle of something",
        meaning: "The end of the file came where more text was needed: usually a truncated file, such \
                  as one whose writer was interrupted.",
        example: "define i32 @f(i32 %a) {\nentry:\n  ret i32 %a\n",
        fix: "Produce the file again; if it was edited by hand, close what is open (here the `}`).",
    },
    Explanation {
        code: "parse-empty",
        severity: "error",
        summary: "a function body with no blocks",
        meaning: "A `define` has braces with no instruction inside. LLVM needs at least one block ending \
                  in a terminator.",
        example: "define void @f() {\n}\n",
        fix: "Add a body (at least `ret void`), or make the function a `declare`.",
    },
    Explanation {
        code: "parse-depth",
        severity: "error",
        summary: "a constant expression nested more than 200 levels deep",
        meaning: "llcoro parses constants recursively and stops at 200 levels rather than overflow its \
                  stack. No compiler writes such constants.",
        example: "",
        fix: "Split the constant into named globals, or lower this file with LLVM's own passes.",
    },
    Explanation {
        code: "parse-no-terminator",
        severity: "error",
        summary: "a block that does not end in a terminator",
        meaning: "Every block must end in `ret`, `br`, `switch` or another terminator; this one ends \
                  where the next label or the closing brace starts.",
        example: "define i32 @f() {\nentry:\n  %x = add i32 1, 2\nnext:\n  ret i32 %x\n}\n",
        fix: "End the block with a branch (here `br label %next`) or a return.",
    },
    Explanation {
        code: "parse-numbering",
        severity: "error",
        summary: "numbered values out of order",
        meaning: "Unnamed values (`%0`, `%1`, ...) must be defined in increasing order. LLVM 14 wants \
                  exactly the next number; LLVM 19 and later allow gaps but not going back.",
        example: "define i32 @f(i32 %0) {\n  %2 = add i32 %0, 1\n  %1 = add i32 %2, 1\n  ret i32 %1\n}\n",
        fix: "Renumber the values in order, or give them names.",
    },
    Explanation {
        code: "parse-redefinition",
        severity: "error",
        summary: "a name defined twice",
        meaning: "A value, block or global is defined a second time in the same scope.",
        example: "define i32 @f(i32 %a) {\nentry:\n  %x = add i32 %a, 1\n  %x = add i32 %a, 2\n  ret i32 %x\n}\n",
        fix: "Rename one of the two definitions and its uses.",
    },
    Explanation {
        code: "parse-type-mismatch",
        severity: "error",
        summary: "an operand of the wrong type",
        meaning: "A value is used with a type other than the one it was defined with, or an instruction \
                  gets operand types it does not accept.",
        example: "define i32 @f(i64 %a) {\nentry:\n  %x = add i32 %a, 1\n  ret i32 %x\n}\n",
        fix: "Use the value with its own type, or convert it first (`trunc`, `zext`, `bitcast`, ...).",
    },
    Explanation {
        code: "parse-undefined",
        severity: "error",
        summary: "a use of a value, block or global that is not defined",
        meaning: "The name is used but never defined: in this function for a local, in the module for a \
                  global.",
        example: "define i32 @f() {\nentry:\n  ret i32 %nope\n}\n",
        fix: "Define the value, or check the spelling of its name. A global needs a definition or a \
              `declare`.",
    },
    Explanation {
        code: "parse-void-result",
        severity: "error",
        summary: "a name given to an instruction that produces no value",
        meaning: "Only instructions with a non-void result can be assigned to a value (`%x = ...`); a \
                  `store` or a call of a `void` function cannot.",
        example: "declare void @g()\n\ndefine void @f() {\nentry:\n  %x = call void @g()\n  ret void\n}\n",
        fix: "Remove the `%x =`.",
    },
    Explanation {
        code: "input-invalid",
        severity: "error",
        summary: "a function llcoro would change breaks a rule of LLVM's verifier",
        meaning: concat!(
            "Before it lowers a function, llcoro checks the SSA rules LLVM's verifier checks: every use ",
            "dominated by its definition (a phi's at the end of its incoming block), phis first and matching ",
            "the predecessors, one terminator at the end of each block, returns of the function's type. ",
            "LLVM rejects such a module too; lowering it would only move the mistake into the output."
        ),
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  br i1 true, label %a, label %b\na:\n  %x = add i32 1, 2\n  br label %b\nb:\n  %y = add i32 %x, 1\n",
            suspend_once!(),
            coro_tail!(),
            coro_decls!()
        ),
        fix: "Fix the compiler or the hand-written IR: `opt -passes=verify` on the input names the same \
              instruction.",
    },
    // The verifier and other bugs.
    Explanation {
        code: "verify",
        severity: "error",
        summary: "llcoro's output failed its own verifier",
        meaning: concat!(
            "Before it writes a function it changed, llcoro checks it (every block terminated, every use ",
            "dominated by its definition, phis matching predecessors). A failure means llcoro built wrong IR. "
        ),
        example: "",
        fix: REPORT,
    },
    Explanation {
        code: "verify-module",
        severity: "error",
        summary: "llcoro's module-level edits failed its own checks",
        meaning: "llcoro checks the module-level edits it made (attribute groups, new names) before it \
                  writes anything. A failure means it would have written a module LLVM rejects.",
        example: "",
        fix: REPORT,
    },
    Explanation {
        code: "internal",
        severity: "error",
        summary: "a bug in llcoro (a worker thread panicked, or a name it needs is taken)",
        meaning: BUG,
        example: "",
        fix: REPORT,
    },
    // Switched-resume coroutines.
    Explanation {
        code: "coro-missing-end",
        severity: "warning",
        summary: "a coroutine without coro.end",
        meaning: "The coroutine calls `llvm.coro.end` nowhere. It is lowered as LLVM does: the ramp keeps its \
                  returns, and in `.resume`, `.destroy` and `.cleanup` a return of a value becomes \
                  `unreachable` (a `ret void` stays). So once resumed or destroyed, the coroutine must never \
                  reach such a return again (it suspends forever, loops or ends the program); otherwise the \
                  program has undefined behaviour.",
        example: concat!(
            coro_head!("presplitcoroutine "),
            suspend_once!(),
            "resume:\n  br label %cleanup\ncleanup:\n  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)\n  ",
            "call void @free(ptr %m)\n  br label %suspend\nsuspend:\n  ret ptr %hdl\n}\n",
            coro_decls!()
        ),
        fix: "Unless no path after a suspend returns, send every suspend's default edge to one block that \
              calls `llvm.coro.end` and then returns, as clang does.",
    },
    Explanation {
        code: "coro-suspend-without-end",
        severity: "error",
        summary: "a suspend path that returns without coro.end",
        meaning: "The default edge of a suspend's switch (taken when the coroutine suspends) leads to a \
                  return that no `llvm.coro.end` comes before, and a resumed or destroyed coroutine can \
                  reach that suspend. LLVM turns that return into `unreachable` in `.resume` and \
                  `.destroy`. (A suspend only the ramp runs, such as an initial suspend, may return \
                  directly.)",
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  br label %loop\nloop:\n  %s = call i8 @llvm.coro.suspend(token none, i1 false)\n  ",
            "switch i8 %s, label %early [i8 0, label %loop\n                              i8 1, label %cleanup]\n",
            "early:\n  ret ptr %hdl\n",
            coro_tail!(),
            coro_decls!()
        ),
        fix: "Send every suspend's default edge to one shared block that calls `llvm.coro.end` and then \
              returns.",
    },
    Explanation {
        code: "coro-multiple-begin",
        severity: "error",
        summary: "more than one coro.id or coro.begin in one coroutine",
        meaning: "A switched-resume coroutine has exactly one `llvm.coro.id` and one `llvm.coro.begin`: \
                  they say where the frame comes from, once.",
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  %hdl2 = call ptr @llvm.coro.begin(token %id, ptr %mem)\n",
            suspend_once!(),
            coro_tail!(),
            coro_decls!()
        ),
        fix: "Merge the paths that lead to them so that one `coro.begin` remains.",
    },
    Explanation {
        code: "coro-missing-begin",
        severity: "error",
        summary: "a coroutine that suspends without coro.begin or coro.id",
        meaning: "A function suspends (`llvm.coro.suspend`) but has no `llvm.coro.begin` (or no \
                  `llvm.coro.id`), so there is no frame to keep its state in.",
        example: concat!(
            "define ptr @f(i32 %n) presplitcoroutine {\nentry:\n",
            "  %s = call i8 @llvm.coro.suspend(token none, i1 false)\n  ret ptr null\n}\n",
            coro_decls!()
        ),
        fix: "Call `llvm.coro.id` and then `llvm.coro.begin` before the first suspend, with the frame's \
              memory.",
    },
    Explanation {
        code: "coro-nothing-to-split",
        severity: "warning",
        summary: "a function marked as a coroutine that has nothing to split",
        meaning: "The function is marked `presplitcoroutine` but has no `llvm.coro.begin` (or \
                  `llvm.coro.id`) and no suspend point. It is not split; its coroutine intrinsics are \
                  removed, as LLVM does.",
        example: concat!(
            "define ptr @f(i32 %n) presplitcoroutine {\nentry:\n",
            "  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)\n  ret ptr null\n}\n",
            coro_decls!()
        ),
        fix: "Nothing, if the function was meant not to suspend; otherwise check that the front end \
              emitted its suspend points.",
    },
    Explanation {
        code: "coro-missing-attribute",
        severity: "warning",
        summary: "a coroutine without the presplitcoroutine attribute",
        meaning: "The function calls `llvm.coro.id` with a null info operand and suspends, so it is a \
                  presplit coroutine, but it lacks the `presplitcoroutine` attribute. llcoro lowers it; \
                  LLVM's own passes would leave it unsplit.",
        example: concat!(coro_head!(""), suspend_once!(), coro_tail!(), coro_decls!()),
        fix: "Add `presplitcoroutine` to the function's attributes (clang does).",
    },
    Explanation {
        code: "coro-separate-suspend-blocks",
        severity: "warning",
        summary: "suspend points that do not share one suspend block",
        meaning: "Canonical IR sends every suspend's default edge to one shared block with \
                  `llvm.coro.end`; here they go to different blocks. It still lowers correctly.",
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  %s = call i8 @llvm.coro.suspend(token none, i1 false)\n  ",
            "switch i8 %s, label %suspend [i8 0, label %next\n                                i8 1, label %cleanup]\n",
            "next:\n  %s2 = call i8 @llvm.coro.suspend(token none, i1 false)\n  ",
            "switch i8 %s2, label %suspend2 [i8 0, label %resume\n                                  i8 1, label %cleanup]\n",
            "suspend2:\n  %e2 = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)\n  ret ptr %hdl\n",
            coro_tail!(),
            coro_decls!()
        ),
        fix: "Nothing is needed; to silence it, branch every suspend's default edge to one block.",
    },
    Explanation {
        code: "coro-token-across-suspend",
        severity: "error",
        summary: "a token value live across a suspend point",
        meaning: "A value of type `token` is defined before a suspend and used after it. Values live across \
                  a suspend are kept in the frame, and no memory can hold a token.",
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  %save = call token @llvm.coro.save(ptr %hdl)\n",
            suspend_once!(),
            "resume:\n  %s2 = call i8 @llvm.coro.suspend(token %save, i1 false)\n  ",
            "switch i8 %s2, label %suspend [i8 0, label %cleanup\n                                 i8 1, label %cleanup]\n",
            "cleanup:\n  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)\n  call void @free(ptr %m)\n  ",
            "br label %suspend\nsuspend:\n  %e = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)\n  ",
            "ret ptr %hdl\n}\n",
            coro_decls!(),
            "declare token @llvm.coro.save(ptr)\n"
        ),
        fix: "Make the token after the suspend (here: call `llvm.coro.save` right before the suspend that \
              uses it).",
    },
    Explanation {
        code: "coro-dynamic-alloca",
        severity: "error",
        summary: "an alloca of run-time size live across a suspend point",
        meaning: "An `alloca` whose element count is not a constant is used across a suspend, so it would \
                  have to move into the frame, whose size is fixed when the coroutine starts.",
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  %buf = alloca i32, i32 %n\n  store i32 1, ptr %buf\n",
            suspend_once!(),
            "resume:\n  %v = load i32, ptr %buf\n  call void @use(i32 %v)\n  br label %cleanup\n",
            "cleanup:\n  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)\n  call void @free(ptr %m)\n  ",
            "br label %suspend\nsuspend:\n  %e = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)\n  ",
            "ret ptr %hdl\n}\n",
            coro_decls!()
        ),
        fix: "Give the alloca a constant size, allocate the buffer on the heap, or use it only between two \
              suspends.",
    },
    Explanation {
        code: "coro-promise",
        severity: "error",
        summary: "a promise operand that is not a fixed-size alloca",
        meaning: "The second operand of `llvm.coro.id` names the promise, which the frame holds at a fixed \
                  offset; it must be an `alloca` of constant size (or `null`).",
        example: concat!(
            "define ptr @f(ptr %p) presplitcoroutine {\nentry:\n",
            "  %id = call token @llvm.coro.id(i32 0, ptr %p, ptr null, ptr null)\n  ",
            "%size = call i64 @llvm.coro.size.i64()\n  %mem = call ptr @malloc(i64 %size)\n  ",
            "%hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)\n",
            suspend_once!(),
            coro_tail!(),
            coro_decls!()
        ),
        fix: "Pass the promise's alloca (or `null`) as `llvm.coro.id`'s second operand.",
    },
    Explanation {
        code: "coro-unknown-intrinsic",
        severity: "error",
        summary: "an llvm.coro.* intrinsic llcoro does not know",
        meaning: "The function calls an intrinsic under `llvm.coro.` that is in no LLVM version llcoro \
                  reads (14 to 22), so it cannot know what it does.",
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  call void @llvm.coro.bogus()\n",
            suspend_once!(),
            coro_tail!(),
            coro_decls!(),
            "declare void @llvm.coro.bogus()\n"
        ),
        fix: "Check the intrinsic's name against the LLVM that produced the file; lower a newer one with \
              that LLVM's passes.",
    },
    Explanation {
        code: "coro-mixed-abi",
        severity: "error",
        summary: "an intrinsic of another coroutine ABI in a switched-resume coroutine",
        meaning: "A coroutine made with `llvm.coro.id` uses that ABI's intrinsics only; the \
                  returned-continuation (`llvm.coro.suspend.retcon`, `llvm.coro.alloca.*`, \
                  `llvm.coro.end.results`) and async (`llvm.coro.suspend.async`, `llvm.coro.async.resume`, \
                  `llvm.coro.end.async`) intrinsics belong to coroutines made with their own coro.id. \
                  (`llvm.coro.async.context.alloc` and `.dealloc` are not refused: they are calls \
                  LLVM's passes leave in any function; see `coro-async-context-alloc`.)",
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  %r = call ptr @llvm.coro.async.resume()\n",
            suspend_once!(),
            coro_tail!(),
            coro_decls!(),
            "declare ptr @llvm.coro.async.resume()\n"
        ),
        fix: "Use the intrinsics of the coroutine's own ABI, or make it with the other ABI's coro.id.",
    },
    Explanation {
        code: "coro-async-intrinsic",
        severity: "error",
        summary: "an intrinsic of another ABI in an async coroutine",
        meaning: "A coroutine made with `llvm.coro.id.async` suspends with `llvm.coro.suspend.async` and \
                  ends with `llvm.coro.end` or `llvm.coro.end.async`; `llvm.coro.save`, `llvm.coro.suspend`, \
                  `llvm.coro.free` and the returned-continuation intrinsics belong to other ABIs.",
        example: concat!(
            async_head!("16", "  %t = call token @llvm.coro.save(ptr %hdl)\n"),
            async_tail!("%r", "@proj", "", ""),
            "declare token @llvm.coro.save(ptr)\n"
        ),
        fix: "Suspend with `llvm.coro.suspend.async`, or make the coroutine with the other ABI's coro.id.",
    },
    Explanation {
        code: "coro-async-context-alloc",
        severity: "warning",
        summary: "llvm.coro.async.context.alloc or .dealloc, kept in the output as LLVM keeps them",
        meaning: "LLVM's coro passes lower an async coroutine that allocates a callee's context with \
                  `llvm.coro.async.context.alloc` (and frees it with `.dealloc`) and leave those calls in \
                  place, in any function: a producer's own pipeline (Swift's) lowers them later, and no \
                  backend compiles them. llcoro does the same (the result is an ordinary value, kept in the \
                  frame when it crosses a suspend) and warns, since its output is then not ready for a \
                  backend on its own.",
        example: concat!(
            async_head!("16", "  %c = call ptr @llvm.coro.async.context.alloc(ptr null, ptr @f_fp)\n"),
            async_tail!("%r", "@proj", "", ""),
            "declare ptr @llvm.coro.async.context.alloc(ptr, ptr)\n"
        ),
        fix: "Run the producer's pass that lowers these intrinsics on the output, as after LLVM's own coro \
              passes; or allocate the callee's context with your runtime's allocator, sized from the second \
              field of the callee's async function pointer (which the lowering fills in).",
    },
    Explanation {
        code: "coro-intrinsic-kept",
        severity: "warning",
        summary: "a coroutine intrinsic in a function that is not a coroutine, kept in the output as LLVM keeps it",
        meaning: "A call such as `llvm.coro.suspend` belongs in a coroutine (a function with `coro.id` and \
                  `coro.begin`), where splitting replaces it. In any other function no pass lowers it: LLVM's \
                  coro passes leave it where it is (some of LLVM's own CoroElide tests do this), and so does \
                  llcoro, with its declaration, lowering what can be lowered around it (`coro.save` becomes \
                  `none`, `coro.subfn.addr` a load from the frame header). The output verifies, but no \
                  backend compiles the call.",
        example: "define void @g(ptr %h) {\n  %s = call i8 @llvm.coro.suspend(token none, i1 false)\n  ret void\n}\n\n\
                  declare i8 @llvm.coro.suspend(token, i1)\n",
        fix: "Move the code into the coroutine it belongs to, or remove the call.",
    },
    Explanation {
        code: "coro-async-id",
        severity: "error",
        summary: "coro.id.async's operands are not what LLVM requires",
        meaning: "`llvm.coro.id.async(i32 header size, i32 alignment, i32 context parameter, ptr \
                  @function_pointer)` needs constants for the context header's size and alignment (a power \
                  of two) and the index of the coroutine's context parameter (a pointer), and names a global \
                  of the module initialised with `<{ i32, i32 }>`, whose second field the lowering sets to \
                  the context's full size. The coroutine returns void.",
        example: concat!(async_head!("3", ""), async_tail!("%r", "@proj", "", "")),
        fix: "Give constant operands, a power-of-two alignment, and a defined async function pointer global.",
    },
    Explanation {
        code: "coro-async-suspend",
        severity: "error",
        summary: "a coro.suspend.async whose operands LLVM cannot split on",
        meaning: "`llvm.coro.suspend.async(i32 context index, ptr resume, ptr @projection, ptr @must_tail, \
                  args...)` returns a struct of the continuation's parameters, of which the indexed one is \
                  a context pointer; `resume` is a `llvm.coro.async.resume` call; `@projection` is a \
                  `ptr (ptr)` function of the module that finds this coroutine's context from that \
                  parameter; `@must_tail` is a function of the module, returning void, that LLVM calls in \
                  the suspend's place with the remaining operands (inlined when it is defined).",
        example: concat!(async_head!("16", ""), async_tail!("null", "@proj", "", "")),
        fix: "Pass the coro.async.resume call's result, and name module functions of those types.",
    },
    Explanation {
        code: "coro-async-end",
        severity: "error",
        summary: "coro.end.async's must-tail function is not a void function of the module taking its operands",
        meaning: "`llvm.coro.end.async(ptr hdl, i1 false, ptr @must_tail, args...)` ends the coroutine by \
                  calling `@must_tail` with the remaining operands (those beyond its parameters dropped) and \
                  returning; the call is inlined when the module defines the function. So it must be a \
                  function of the module that returns void and whose parameters have those operands' types.",
        example: concat!(
            async_head!("16", ""),
            async_tail!("%r", "@proj", "", ", ptr @elsewhere, ptr %ctx"),
            "declare i32 @elsewhere(ptr)\n"
        ),
        fix: "Make the must-tail function return void (typically a `musttail` call of the caller's \
              continuation, then `ret void`) and take the operands given.",
    },
    Explanation {
        code: "coro-retcon-intrinsic",
        severity: "error",
        summary: "a switched-resume intrinsic in a returned-continuation coroutine",
        meaning: "A coroutine made with `llvm.coro.id.retcon` or `.retcon.once` suspends with \
                  `llvm.coro.suspend.retcon` and keeps no resume or destroy pointers: `llvm.coro.suspend`, \
                  `llvm.coro.save`, `llvm.coro.free` and the like belong to `llvm.coro.id` coroutines.",
        example: concat!(
            retcon_head!("{ ptr, i32 }", "ptr %buf", "@proto"),
            "%s = call i8 @llvm.coro.suspend(token none, i1 false)\n",
            retcon_tail!("none"),
            "declare { ptr, i32 } @proto(ptr, i1)\n",
            "declare i8 @llvm.coro.suspend(token, i1)\n",
            retcon_decls!()
        ),
        fix: "Suspend with `llvm.coro.suspend.retcon`, or make the coroutine with `llvm.coro.id`.",
    },
    Explanation {
        code: "coro-retcon-id",
        severity: "error",
        summary: "coro.id.retcon's operands are not constants and module functions",
        meaning: "`llvm.coro.id.retcon(i32 size, i32 align, ptr buffer, ptr prototype, ptr allocate, ptr \
                  deallocate)` needs the buffer's size and alignment as constants and names three functions \
                  declared or defined in the module: the continuations' prototype, the allocator for a frame \
                  that does not fit in the buffer, and its deallocator.",
        example: concat!(
            retcon_head!("{ ptr, i32 }", "ptr %buf", "null"),
            "%w = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 0)\n",
            retcon_tail!("none"),
            retcon_decls!()
        ),
        fix: "Name the prototype, allocator and deallocator functions directly in coro.id.retcon.",
    },
    Explanation {
        code: "coro-retcon-prototype",
        severity: "error",
        summary: "the prototype, allocator or deallocator does not have the signature LLVM requires",
        meaning: "Every continuation has the prototype's type: it takes the caller's buffer first, then the \
                  values a suspend returns; with `coro.id.retcon` it returns what the coroutine returns (the \
                  next continuation and the yielded values). The allocator is `ptr (iN)` and the deallocator \
                  takes a pointer. LLVM stops with a fatal error on these; llcoro says where.",
        example: concat!(
            retcon_head!("{ ptr, i32 }", "ptr %buf", "@proto"),
            "%w = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 0)\n",
            retcon_tail!("none"),
            "declare { ptr, i64 } @proto(ptr, i1)\n",
            retcon_decls!()
        ),
        fix: "Give the prototype the coroutine's return type and the buffer as its first parameter.",
    },
    Explanation {
        code: "coro-retcon-suspend",
        severity: "error",
        summary: "a coro.suspend.retcon whose values do not match the coroutine's types",
        meaning: "`llvm.coro.suspend.retcon`'s operands are the values yielded with the next continuation, \
                  so their types are the coroutine's return type after the continuation pointer; its result \
                  is what the continuation is called with, the prototype's parameters after the buffer.",
        example: concat!(
            retcon_head!("{ ptr, i32 }", "ptr %buf", "@proto"),
            "%w = call i1 (...) @llvm.coro.suspend.retcon.i1(i64 7)\n",
            retcon_tail!("none"),
            "declare { ptr, i32 } @proto(ptr, i1)\n",
            retcon_decls!()
        ),
        fix: "Yield the types the coroutine returns, and take the types the prototype takes.",
    },
    Explanation {
        code: "coro-retcon-end",
        severity: "error",
        summary: "a coro.end whose results do not match the continuation's return type",
        meaning: "A `.retcon.once` coroutine's final `coro.end` gives, through `llvm.coro.end.results`, the \
                  values its continuation returns (the prototype's return type); a `coro.id.retcon` \
                  coroutine ends by returning a null continuation and has no results.",
        example: concat!(
            retcon_head!("{ ptr, i32 }", "ptr %buf", "@proto"),
            "%w = call i1 (...) @llvm.coro.suspend.retcon.i1(i32 0)\n  ",
            "%r = call token (...) @llvm.coro.end.results(i32 1)\n",
            retcon_tail!("%r"),
            "declare { ptr, i32 } @proto(ptr, i1)\n",
            "declare token @llvm.coro.end.results(...)\n",
            retcon_decls!()
        ),
        fix: "Give coro.end.results the prototype's return values, or none for `coro.id.retcon`.",
    },
    Explanation {
        code: "coro-outside-frame",
        severity: "warning",
        summary: "an alloca marked !coro.outside.frame used after a suspend",
        meaning: "The `!coro.outside.frame` marker keeps an alloca out of the frame: each split function \
                  gets a fresh copy. This one is read in code that runs after a resume, where the copy \
                  does not hold what the ramp wrote. LLVM reads the same fresh copy; llcoro warns.",
        example: concat!(
            "define ptr @f(i32 %n) presplitcoroutine {\nentry:\n  %keep = alloca i32, align 4, !coro.outside.frame !0\n",
            "  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)\n  ",
            "%size = call i64 @llvm.coro.size.i64()\n  %mem = call ptr @malloc(i64 %size)\n  ",
            "%hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)\n  store i32 %n, ptr %keep\n",
            suspend_once!(),
            "resume:\n  %v = load i32, ptr %keep\n  call void @use(i32 %v)\n  br label %cleanup\n",
            "cleanup:\n  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)\n  call void @free(ptr %m)\n  ",
            "br label %suspend\nsuspend:\n  %e = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)\n  ",
            "ret ptr %hdl\n}\n",
            coro_decls!(),
            "\n!0 = !{}\n"
        ),
        fix: "Use such an alloca only before the first suspend or on the ramp's return path; if a compiler \
              wrote this IR, report it there.",
    },
    Explanation {
        code: "coro-frame-after-end",
        severity: "warning",
        summary: "frame storage read on the ramp's return path",
        meaning: "After `llvm.coro.end` on the ramp's return path, the code reads memory that lives in the \
                  frame. If the coroutine can be resumed and run to completion before the ramp returns \
                  (another thread, or `await_suspend` resuming it), the frame is already freed there.",
        example: concat!(
            "define i32 @f(i32 %n) presplitcoroutine {\nentry:\n  %count = alloca i32, align 4\n",
            "  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null)\n  ",
            "%size = call i64 @llvm.coro.size.i64()\n  %mem = call ptr @malloc(i64 %size)\n  ",
            "%hdl = call ptr @llvm.coro.begin(token %id, ptr %mem)\n  store i32 %n, ptr %count\n",
            suspend_once!(),
            "resume:\n  %v = load i32, ptr %count\n  call void @use(i32 %v)\n  br label %cleanup\n",
            "cleanup:\n  %m = call ptr @llvm.coro.free(token %id, ptr %hdl)\n  call void @free(ptr %m)\n  ",
            "br label %suspend\nsuspend:\n  %e = call i1 @llvm.coro.end(ptr %hdl, i1 false, token none)\n  ",
            "%r = load i32, ptr %count\n  ret i32 %r\n}\n",
            coro_decls!()
        ),
        fix: "Return a copy made before the first suspend instead of reading the frame after `coro.end`.",
    },
    // kxs suspend functions.
    Explanation {
        code: "kxs-and-coro",
        severity: "error",
        summary: "a function that is both a C++20 coroutine and a kxs suspend function",
        meaning: "The function is a presplit coroutine and also calls `__kxs_suspend_point`; one function \
                  suspends one way.",
        example: concat!(
            coro_head!("presplitcoroutine "),
            "  call void @__kxs_suspend_point(i32 1)\n",
            suspend_once!(),
            coro_tail!(),
            coro_decls!(),
            "declare void @__kxs_suspend_point(i32)\n"
        ),
        fix: "Use either co_await/co_yield or the kxs macros in one function.",
    },
    Explanation {
        code: "kxs-return-type",
        severity: "error",
        summary: "a suspend function that returns something other than ptr or void",
        meaning: "A kxs suspend function returns `COROUTINE_SUSPENDED` (a pointer) when it suspends, so it \
                  must return `ptr` (or `void`).",
        example: concat!(
            "define i32 @f(ptr %cont) {\nentry:\n  call void @__kxs_suspend_point(i32 1)\n  ret i32 0\n}\n",
            kxs_decls!()
        ),
        fix: "Declare the function to return `void*` (the macros return COROUTINE_SUSPENDED from it).",
    },
    Explanation {
        code: "kxs-marker-id",
        severity: "error",
        summary: "a suspend marker whose id is not a constant",
        meaning: "`__kxs_suspend_point(N)` names each suspend point; N must be an integer constant.",
        example: concat!(
            "define ptr @f(ptr %cont, i32 %k) {\nentry:\n  call void @__kxs_suspend_point(i32 %k)\n  ret ptr null\n}\n",
            kxs_decls!()
        ),
        fix: "Pass a constant: the macros use `__COUNTER__`.",
    },
    Explanation {
        code: "kxs-marker-in-unwind",
        severity: "error",
        summary: "a suspend point inside exception-handling code",
        meaning: "The suspend marker runs while an exception is being handled: in a catch handler (before \
                  `__cxa_end_catch`) or in a cleanup on an invoke's unwind path, however many landing pads lead \
                  there. Suspending would return with the exception still caught, and the next coroutine the \
                  thread runs would see it as its own. Code after the handler ended may suspend.",
        example: concat!(
            "define ptr @f(ptr %cont) personality ptr @__gxx_personality_v0 {\nentry:\n",
            "  call void @__kxs_begin(ptr %cont, ptr null)\n  %x = invoke i32 @next()\n          to label %ok unwind label %lp\n",
            "ok:\n  ret ptr null\nlp:\n  %l = landingpad { ptr, i32 } cleanup\n  ",
            "call void @__kxs_suspend_point(i32 1)\n  resume { ptr, i32 } %l\n}\n",
            kxs_decls!(),
            "declare i32 @__gxx_personality_v0(...)\n"
        ),
        fix: "Move the suspending call out of the handler: catch, remember the error, and suspend after it.",
    },
    Explanation {
        code: "kxs-begin-twice",
        severity: "error",
        summary: "two __kxs_begin calls in one function",
        meaning: "`__kxs_begin` marks where a suspend function starts (and names its slots); there is one.",
        example: concat!(
            "define ptr @f(ptr %cont) {\nentry:\n  call void @__kxs_begin(ptr %cont, ptr null)\n  ",
            "call void @__kxs_begin(ptr %cont, ptr null)\n  call void @__kxs_suspend_point(i32 1)\n  ret ptr null\n}\n",
            kxs_decls!()
        ),
        fix: "Use `coroutine_begin` once, at the top of invoke_suspend.",
    },
    Explanation {
        code: "kxs-begin-operands",
        severity: "error",
        summary: "a __kxs_begin call without its two slot operands",
        meaning: "`__kxs_begin(label_slot, frame_slot)` takes the address where the resume label is kept and \
                  the address where the spill frame pointer is kept.",
        example: concat!(
            "define ptr @f(ptr %cont) {\nentry:\n  ",
            "call void @__kxs_begin(ptr %cont)\n  call void @__kxs_suspend_point(i32 1)\n  ret ptr null\n}\n",
            "\ndeclare void @__kxs_suspend_point(i32)\ndeclare void @__kxs_begin(ptr)\n"
        ),
        fix: "Call `__kxs_begin(&c->_label, &c->_kxs_frame)` (the `coroutine_begin` macro does).",
    },
    Explanation {
        code: "kxs-no-label-slot",
        severity: "error",
        summary: "a suspend function with no label slot",
        meaning: "Nothing says where the resume address is kept: there is no `__kxs_begin` call and no \
                  pointer parameter to keep it in.",
        example: concat!(
            "define ptr @f(i32 %n) {\nentry:\n  call void @__kxs_suspend_point(i32 1)\n  ret ptr null\n}\n",
            kxs_decls!()
        ),
        fix: "Call `__kxs_begin(label_slot, frame_slot)` before the first suspend point, or pass the label \
              slot's address as the first parameter.",
    },
    Explanation {
        code: "kxs-label-slot",
        severity: "error",
        summary: "a label slot that does not survive the suspend",
        meaning: "The resume label must be kept in memory that outlives the call (a field of the \
                  continuation object): this one is on the stack, null, or not a pointer llcoro can trace \
                  to the object.",
        example: concat!(
            "define ptr @f(ptr %cont) {\nentry:\n  %slot = alloca ptr\n  ",
            "call void @__kxs_begin(ptr %slot, ptr null)\n  call void @__kxs_suspend_point(i32 1)\n  ret ptr null\n}\n",
            kxs_decls!()
        ),
        fix: "Pass the address of the continuation object's label field (`&c->_label`).",
    },
    Explanation {
        code: "kxs-no-frame-slot",
        severity: "error",
        summary: "values live across a suspend but no frame slot",
        meaning: "A value is needed after a suspend, so it must be spilled to a frame, but the function \
                  names no slot to keep the frame pointer in.",
        example: concat!(
            "define ptr @f(ptr %cont) {\nentry:\n  %x = call i32 @next()\n  call void @__kxs_suspend_point(i32 1)\n  ",
            "%y = add i32 %x, 1\n  call i32 @next()\n  ret ptr null\n}\n",
            kxs_decls!()
        ),
        fix: "Call `__kxs_begin(label_slot, frame_slot)` at the start, with frame_slot the address of a \
              `void*` field of the continuation object.",
    },
    // Stackless frames.
    Explanation {
        code: "stackless-invoke",
        severity: "error",
        summary: "a frame intrinsic called with invoke",
        meaning: "The `gc.frame.*` intrinsics do not throw; calling one with `invoke` has no meaning.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) personality ptr @pers {\nentry:\n  ",
            "%lay = invoke token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n          to label %ok unwind label %lp\n",
            "lp:\n  %l = landingpad { ptr, i32 } cleanup\n  resume { ptr, i32 } %l\nok:\n",
            stackless_ret!("0"),
            stackless_decls!(),
            "declare i32 @pers(...)\n"
        ),
        fix: "Call frame intrinsics with `call`.",
    },
    Explanation {
        code: "stackless-unknown",
        severity: "error",
        summary: "an llvm.gc.frame.* intrinsic llcoro does not know",
        meaning: "The name starts like a frame intrinsic but is none of those docs/stackless.md lists.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  call void @llvm.gc.frame.bogus()\n",
            stackless_ret!("0"),
            stackless_decls!(),
            "declare void @llvm.gc.frame.bogus()\n"
        ),
        fix: "Use spillsz, layout, save, statepoint, accessor, sp, load, result or return.",
    },
    Explanation {
        code: "stackless-load-token",
        severity: "error",
        summary: "a frame load that does not read through an accessor",
        meaning: "After a statepoint the frame may have moved; `gc.frame.load` must read the frame a \
                  `gc.frame.accessor` names, not the layout's.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i32 %x) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "call void (token, ...) @llvm.gc.frame.save(token %lay, i32 %x, i32 8)\n  ",
            "%tok = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%v = call i32 @llvm.gc.frame.load.i32(token %lay, i32 8)\n",
            stackless_ret!("%v"),
            stackless_decls!()
        ),
        fix: "Load from `gc.frame.accessor(token %statepoint)`.",
    },
    Explanation {
        code: "stackless-layout",
        severity: "error",
        summary: "a frame layout without a frame pointer or constant offsets",
        meaning: "`gc.frame.layout(ptr %sp, i32 RA_OFFSET, i32 SPILL_OFFSET)` describes the frame at a \
                  statepoint; its offsets must be constants (the spill area's from 0 to 2^31-1), and a \
                  layout must come before every statepoint and every reload on every path.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i32 %k) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 %k, i32 16)\n",
            stackless_ret!("0"),
            stackless_decls!()
        ),
        fix: "Write `layout(ptr %sp, i32 RA_OFFSET, i32 SPILL_OFFSET)` with constant offsets.",
    },
    Explanation {
        code: "stackless-save",
        severity: "error",
        summary: "a frame save without a layout token, a value and a constant offset",
        meaning: "`gc.frame.save(token %layout, VALUE, i32 OFFSET)` stores a value in the frame's explicit \
                  slot at OFFSET.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i32 %x, i32 %k) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "call void (token, ...) @llvm.gc.frame.save(token %lay, i32 %x, i32 %k)\n",
            stackless_ret!("0"),
            stackless_decls!()
        ),
        fix: "Write `save(token %layout, <value>, i32 OFFSET)` with a constant offset.",
    },
    Explanation {
        code: "stackless-statepoint-layout",
        severity: "error",
        summary: "a statepoint whose last operand is not a layout with a spill area",
        meaning: "A statepoint's last operand is the token of the frame layout in force at the call, and \
                  that layout must have a spill area.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t1 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%t2 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 2, token %t1)\n",
            stackless_ret!("0"),
            stackless_decls!()
        ),
        fix: "Pass the callee, its arguments, then the token a `gc.frame.layout` call returned.",
    },
    Explanation {
        code: "stackless-callee-type",
        severity: "error",
        summary: "a statepoint whose callee's type is unknown or disagrees with the call",
        meaning: "llcoro calls the callee with the frame pointer first and reads back what it returns: \
                  `{ptr, T}` (the frame pointer and the result), `{ptr}` or `ptr`. A callee the module \
                  declares must be declared so, taking the frame pointer and then the statepoint's \
                  arguments; an indirect callee gives no type, so its result must be read.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, ptr %fn) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr %fn, i32 1, token %lay)\n",
            stackless_ret!("0"),
            stackless_decls!()
        ),
        fix: "Declare the callee as taking `(ptr sp, ARGS...)` and returning `{ptr, T}`, `{ptr}` or `ptr`, \
              and pass it ARGS; for an indirect callee, read its result with `gc.frame.result`.",
    },
    Explanation {
        code: "stackless-result-type",
        severity: "error",
        summary: "a statepoint's result read as another type than its callee returns",
        meaning: "`gc.frame.result` reads the T of the `{ptr, T}` the callee returns: its type must be the \
                  callee's declared T, and a callee returning only the frame pointer (`{ptr}` or `ptr`) \
                  has no result to read.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%r = call i64 @llvm.gc.frame.result.i64(token %t)\n",
            stackless_ret!("0"),
            stackless_decls!(),
            "declare i64 @llvm.gc.frame.result.i64(token)\n"
        ),
        fix: "Read the result as the type the callee's declaration returns after the frame pointer.",
    },
    Explanation {
        code: "stackless-token",
        severity: "error",
        summary: "an accessor or result of a token that is no statepoint",
        meaning: "`gc.frame.accessor` names the frame after a call, and `gc.frame.result` the call's \
                  result: both read the token a `gc.frame.statepoint` returned.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%acc = call token @llvm.gc.frame.accessor(token %lay)\n",
            stackless_ret!("0"),
            stackless_decls!()
        ),
        fix: "Pass the token a `gc.frame.statepoint` call returned.",
    },
    Explanation {
        code: "stackless-token-use",
        severity: "error",
        summary: "a frame token passed to something that is not a frame intrinsic",
        meaning: "The tokens of `gc.frame.layout`, `gc.frame.statepoint` and `gc.frame.accessor` stand for \
                  a frame; llcoro replaces them with the frame pointer and addresses in it, so an instruction \
                  other than a frame intrinsic that reads one (often a misspelt intrinsic name, which is an \
                  ordinary call) would be left reading nothing.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%tok = call token (...) @llvm.gc.fra.statepoint(ptr @callee, token %lay)\n",
            stackless_ret!("0"),
            "\ndeclare token @llvm.gc.fra.statepoint(...)",
            stackless_decls!()
        ),
        fix: "Pass frame tokens only to the `llvm.gc.frame.*` and `llvm.frame.*` intrinsics; check the name of \
              the call the error points at.",
    },
    Explanation {
        code: "stackless-return",
        severity: "error",
        summary: "a frame.return without a layout, or whose result does not hold what it is given",
        meaning: "`frame.return(token %layout, T value)` makes `{ptr, T}` from the frame pointer of the \
                  layout (the caller's frame) and the value; `frame.return(token %layout)` makes `{ptr}` or \
                  `ptr`.",
        example: concat!(
            "define { ptr, i64 } @f(ptr %sp_arg, i32 %x) {\nentry:\n  ",
            "%rl = call token @llvm.frame.layout(ptr %sp_arg, i32 8)\n  ",
            "%r = call { ptr, i64 } @llvm.frame.return.i64(token %rl, i32 %x)\n  ret { ptr, i64 } %r\n}\n",
            "declare token @llvm.frame.layout(ptr, i32)\ndeclare { ptr, i64 } @llvm.frame.return.i64(token, i32)\n"
        ),
        fix: "Return `{ptr, T}` with a value of type T, or `{ptr}` / `ptr` with no value, on a layout's token.",
    },
    Explanation {
        code: "stackless-sp-token",
        severity: "error",
        summary: "frame.sp of a token that is no statepoint or accessor",
        meaning: "`gc.frame.sp` reads the frame pointer that a statepoint or its accessor names.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%p = call ptr @llvm.gc.frame.sp(token %lay)\n",
            stackless_ret!("0"),
            stackless_decls!(),
            "declare ptr @llvm.gc.frame.sp(token)\n"
        ),
        fix: "Pass the token a `gc.frame.statepoint` or `gc.frame.accessor` call returned.",
    },
    Explanation {
        code: "stackless-load",
        severity: "error",
        summary: "a frame load without an accessor token and a constant offset",
        meaning: "`gc.frame.load(token %accessor, i32 OFFSET)` reads the explicit slot at OFFSET.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i32 %k) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%acc = call token @llvm.gc.frame.accessor(token %t)\n  ",
            "%v = call i32 @llvm.gc.frame.load.i32(token %acc, i32 %k)\n",
            stackless_ret!("%v"),
            stackless_decls!()
        ),
        fix: "Write `load(token %accessor, i32 OFFSET)` with a constant offset.",
    },
    Explanation {
        code: "stackless-stale-frame",
        severity: "error",
        summary: "a frame pointer used after a statepoint that may move the frame",
        meaning: "A statepoint may move the frame (the collector copies it); the pointer from before the \
                  call no longer points at it.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%v = load i32, ptr %sp\n",
            stackless_ret!("%v"),
            stackless_decls!()
        ),
        fix: "After the call, use the frame `gc.frame.accessor` returns (and `gc.frame.load` from it).",
    },
    Explanation {
        code: "stackless-spill-offset",
        severity: "error",
        summary: "statepoints of one function with different spill-area offsets",
        meaning: "The spill area llcoro lays out is one per function, so every layout of the function must \
                  put it at the same offset.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i32 %x) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%acc = call token @llvm.gc.frame.accessor(token %t)\n  %sp2 = call ptr @llvm.gc.frame.sp(token %acc)\n  ",
            "%lay2 = call token @llvm.gc.frame.layout(ptr %sp2, i32 0, i32 24)\n  ",
            "%t2 = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 %x, token %lay2)\n  ",
            "%y = add i32 %x, 1\n",
            stackless_ret!("%y"),
            stackless_decls!(),
            "declare ptr @llvm.gc.frame.sp(token)\n"
        ),
        fix: "Give every frame layout of one function the same spill-area offset.",
    },
    Explanation {
        code: "stackless-alloca",
        severity: "error",
        summary: "an alloca used after a statepoint",
        meaning: "An alloca lives on the native stack, which a stackless call does not keep: after the \
                  statepoint it is gone.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i32 %x) {\nentry:\n  %slot = alloca i32\n  store i32 %x, ptr %slot\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%v = load i32, ptr %slot\n",
            stackless_ret!("%v"),
            stackless_decls!()
        ),
        fix: "Keep the value in the frame: `gc.frame.save` it before the call and `gc.frame.load` it after.",
    },
    Explanation {
        code: "stackless-gc-pointer",
        severity: "error",
        summary: "a GC pointer live across a statepoint without a slot",
        meaning: "A pointer into the collected heap (`addrspace(1)`) is used after a statepoint, but only a \
                  slot the front end declares is visible to the collector, which may move the object.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, ptr addrspace(1) %obj) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%v = load i32, ptr addrspace(1) %obj\n",
            stackless_ret!("%v"),
            stackless_decls!()
        ),
        fix: "`gc.frame.save` it before the call and `gc.frame.load` it from the accessor after.",
    },
    Explanation {
        code: "stackless-slot-overlap",
        severity: "error",
        summary: "explicit frame slots that overlap",
        meaning: "Two explicit slots of a frame, or a slot and the return address or spill area, use the \
                  same bytes.",
        example: concat!(
            "define { ptr, i32 } @f(ptr %sp_arg, ptr %sp, i32 %x) {\nentry:\n  ",
            "%lay = call token @llvm.gc.frame.layout(ptr %sp, i32 0, i32 16)\n  ",
            "call void (token, ...) @llvm.gc.frame.save(token %lay, i32 %x, i32 4)\n  ",
            "%t = call token (...) @llvm.gc.frame.statepoint(ptr @callee, i32 1, token %lay)\n  ",
            "%acc = call token @llvm.gc.frame.accessor(token %t)\n  ",
            "%v = call i32 @llvm.gc.frame.load.i32(token %acc, i32 4)\n",
            stackless_ret!("%v"),
            stackless_decls!()
        ),
        fix: "Give every explicit slot of a frame its own bytes, apart from the return address and the \
              spill area.",
    },
];

/// The explanation of `code`, if there is one.
pub fn find(code: &str) -> Option<&'static Explanation> {
    EXPLANATIONS.iter().find(|e| e.code == code)
}

/// `llcoro explain CODE` for people.
pub fn render(e: &Explanation) -> String {
    let mut s = format!("{}[{}]: {}\n\n{}\n", e.severity, e.code, e.summary, wrap(e.meaning));
    if e.example.is_empty() {
        s.push_str(&format!("\nNo example: {}\n", no_example(e.code)));
    } else {
        // A function body is parsed only when it has something to lower, unless --parse-all asks.
        let how =
            if e.code.starts_with("parse-") { "llcoro --parse-all example.ll" } else { "llcoro check example.ll" };
        s.push_str(&format!("\nExample (`{how}` reports it):\n\n"));
        for l in e.example.lines() {
            if l.is_empty() {
                s.push('\n');
            } else {
                s.push_str("    ");
                s.push_str(l);
                s.push('\n');
            }
        }
    }
    s.push_str("\nHow to fix it:\n\n");
    s.push_str(&wrap(e.fix));
    s.push('\n');
    s
}

/// Why a code comes without an example.
fn no_example(code: &str) -> &'static str {
    match code {
        "parse-depth" => "the smallest input that triggers it is a constant expression 201 levels deep.",
        _ => "no input should trigger it.",
    }
}

/// The list `llcoro explain` prints without a code.
pub fn list() -> String {
    let w = EXPLANATIONS.iter().map(|e| e.code.len()).max().unwrap_or(0);
    let mut s = String::from("Codes llcoro reports (`llcoro explain CODE` for one):\n\n");
    for e in EXPLANATIONS {
        s.push_str(&format!("  {:<w$}  {:<7}  {}\n", e.code, e.severity, e.summary));
    }
    s
}

/// Text filled to 96 columns, breaking only at spaces.
fn wrap(text: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.len() + 1 + word.len() > 96 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out
}
