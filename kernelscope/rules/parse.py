"""KS9xx: problems reading the source, and problems with the lint comments themselves."""

from kernelscope.rules._base import Rule


class UnparsableSource(Rule):
    """## What it does
    Reports places where the source could not be parsed. The analyses skip the damaged region, so
    findings there may be missing.

    ## Why is this bad?
    A clean lint run over a file that was only partly understood is a false sense of safety: the
    code in the damaged region is not checked at all. That is why this is an error (the run exits
    1), not a warning that CI would let through. Parse problems usually come from macros the
    analyser cannot see (defined in a header that is not passed, or on the compiler command line)
    or from real syntax errors.

    ## Example
    ```cuda
    // The build passes -DEXPORT_KERNEL='extern "C" __global__'; without it this does not parse.
    EXPORT_KERNEL void fill(float* a) { a[threadIdx.x] = 0.0f; }
    ```

    ## Use instead
    Pass the definitions the build uses (`kernelscope lint -D NAME=VALUE`, or `define = [...]` in
    the configuration), or fix the syntax error.
    """
    code = "KS901"
    name = "syntax-error"
    severity = "error"
    scope = "file"

    @classmethod
    def check(cls, facts):
        for error in facts.model.errors:
            yield cls.finding(facts.path, error.line, error.column, error.message)


class UnsupportedConstruct(Rule):
    """## What it does
    Reports code that the analyses could not follow: constructs they do not model (such as inline
    PTX assembly) and expressions or macro expansions nested too deeply to analyse. Results for the
    kernel around them are approximate.

    ## Why is this bad?
    It is a limit of the analyser rather than of the code: accesses and barriers inside the
    construct are invisible, so a hazard there would go unreported.

    ## Example
    ```cuda
    __global__ void k(float* a) {
        float v;
        asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(a));
        a[threadIdx.x] = v;
    }
    ```

    ## Use instead
    ```cuda
    __global__ void k(const float* __restrict__ a, float* out) {
        out[threadIdx.x] = __ldg(a);             // the intrinsic says the same and is visible
    }
    ```
    Where the construct is needed, suppress the finding for that line.
    """
    code = "KS902"
    name = "unsupported-construct"
    severity = "info"
    scope = "file"

    @classmethod
    def check(cls, facts):
        for kernel in facts.model.kernels:
            for note in kernel.notes:
                yield cls.finding(facts.path, kernel.line, kernel.column, note, kernel.name)


class UnusedSuppression(Rule):
    """## What it does
    Reports `kernelscope: ignore[...]`, `disable[...]` and `ignore-file[...]` comments that suppress
    nothing, and comments that name codes that do not exist.

    ## Why is this bad?
    A stale suppression is a standing exemption: once the code below it changes, it can silently
    hide a new, real finding. A misspelt code suppresses nothing while looking as if it does.

    ## Example
    ```cuda
    out[i] = in[i];   // kernelscope: ignore[KS101]   (the access is coalesced)
    ```

    ## Use instead
    ```cuda
    out[i] = in[i];
    ```
    This rule is controlled by the configuration (`select`, `ignore`, `per-file-ignores`), not by
    inline comments.
    """
    code = "KS903"
    name = "unused-suppression"
    severity = "warning"
