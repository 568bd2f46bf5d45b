from kernelscope.rl.extract import extract_code, kernel_names


def test_fenced_cuda_block_is_extracted_without_the_prose():
    result = extract_code("Sure.\n```cuda\n__global__ void k(float* a) { a[0] = 1; }\n```\nDone.")
    assert result.ok
    assert result.code.strip() == "__global__ void k(float* a) { a[0] = 1; }"
    assert result.kernels == ("k",)


def test_helper_block_is_kept_and_a_revised_kernel_replaces_the_first_try():
    text = ("```cuda\n__device__ float sq(float x) { return x * x; }\n```\n"
            "First try:\n```cuda\n__global__ void k(float* a) { a[0] = 1; }\n```\n"
            "Better:\n```cpp\n__global__ void k(float* a) { a[threadIdx.x] = sq(2.f); }\n```\n")
    result = extract_code(text)
    assert "sq(float x)" in result.code
    assert "a[threadIdx.x] = sq(2.f)" in result.code
    assert "a[0] = 1" not in result.code
    assert result.kernels == ("k",)


def test_distinct_kernels_in_several_blocks_are_all_kept():
    text = ("```cuda\n__global__ void first(float* a) { a[0] = 1; }\n```\n"
            "```cuda\n__global__ void second(float* a) { a[1] = 2; }\n```\n")
    assert extract_code(text).kernels == ("first", "second")


def test_blocks_in_other_languages_are_ignored():
    text = "```python\nprint('__global__')\n```\n```cuda\n__global__ void k(int* x) { x[0] = 0; }\n```"
    result = extract_code(text)
    assert "print" not in result.code and result.kernels == ("k",)


def test_missing_code_is_reported_not_raised():
    result = extract_code("I cannot help with that.")
    assert not result.ok and result.code is None and "no code" in result.problem


def test_code_block_without_a_kernel_is_not_usable():
    result = extract_code("```cuda\n__device__ int f() { return 1; }\n```")
    assert not result.ok and "__global__" in result.problem


def test_unterminated_fence_is_taken_to_the_end_and_marked_truncated():
    result = extract_code("```cuda\n__global__ void k(int* x) {\n  x[0] = 0;\n")
    assert result.ok and result.truncated and result.kernels == ("k",)


def test_unfenced_kernel_is_found_in_prose():
    result = extract_code('Answer: extern "C" __global__ void g(float *x) { x[0] = 0; }\nHope it helps.')
    assert result.ok and result.kernels == ("g",) and "Hope" not in result.code


def test_conversational_completions_are_read_from_the_assistant_message():
    messages = [{"role": "assistant", "content": "```cuda\n__global__ void k(int* x) { x[0] = 0; }\n```"}]
    assert extract_code(messages).kernels == ("k",)


def test_kernel_names_skip_commented_out_kernels_and_handle_templates():
    code = ("// __global__ void old(int* x);\ntemplate <int N>\n__global__ void __launch_bounds__(256) "
            "tiled(float* a) {}\n")
    assert kernel_names(code) == ["tiled"]
