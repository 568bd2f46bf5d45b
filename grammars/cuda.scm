; Top-level structure of a CUDA file, as the front end needs it.
; Capture names are the front end's contract with this file (kernelscope/frontend/parse.py).
;
; The patterns name node types only: tree-sitter spends most of a query's compile time on field
; constraints (with them this file took ~42 ms to compile, paid by every `kernelscope analyze`
; process; without, ~10 ms). The few constraints that matter are checked on the captured nodes in
; parse.py (`_refine`), which sees only a handful of nodes per file.

; function definitions, wherever they sit (namespaces, extern "C" blocks, templates, class bodies):
; __global__ ones are kernels, __device__ ones helpers that kernels may call (inlined by the analyses)
(function_definition) @function

; host launch sites: kernel<<<grid, block, smem, stream>>>(args)
(call_expression (kernel_call_syntax)) @launch

; explicit template instantiations: template __global__ void k<float, 128>(float*);
(template_instantiation) @instance

; template ids (Stream<double>, reduce<float>) and class bodies: the host code's instantiations and
; members, from which template kernels' element types follow (frontend/template_types.py)
(template_type name: (_) @template_id.name arguments: (template_argument_list) @template_id.args)
(template_function name: (_) @template_id.name arguments: (template_argument_list) @template_id.args)
(class_specifier name: (_) @class.name body: (field_declaration_list)) @class

; structs with a body, for field offsets and sizes
(struct_specifier body: (field_declaration_list)) @struct

; file-scope typedefs
(type_definition) @typedef

; syntax errors
(ERROR) @error
(MISSING) @missing
