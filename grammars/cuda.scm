; Top-level structure of a CUDA file, as the front end needs it.
; Capture names are the front end's contract with this file (kernelscope/frontend/parse.py).

; __global__ functions, wherever they sit (namespaces, extern "C" blocks, templates)
(function_definition "__global__" declarator: (function_declarator declarator: (_) @kernel.name)) @kernel

; __device__ helpers that kernels may call (inlined by the analyses)
(function_definition "__device__" declarator: (function_declarator declarator: (_) @device.name)) @device

; host launch sites: kernel<<<grid, block, smem, stream>>>(args)
(call_expression function: (_) @launch.callee (kernel_call_syntax) @launch.config arguments: (argument_list) @launch.args) @launch

; explicit template instantiations: template __global__ void k<float, 128>(float*);
(template_instantiation declarator: (function_declarator declarator: (template_function name: (_) @instance.name arguments: (template_argument_list) @instance.args))) @instance

; template ids (Stream<double>, reduce<float>) and class bodies: the host code's instantiations and
; members, from which template kernels' element types follow (frontend/template_types.py)
(template_type name: (_) @template_id.name arguments: (template_argument_list) @template_id.args)
(template_function name: (_) @template_id.name arguments: (template_argument_list) @template_id.args)
(class_specifier name: (_) @class.name body: (field_declaration_list)) @class

; structs with a body, for field offsets and sizes
(struct_specifier name: (type_identifier) @struct.name body: (field_declaration_list) @struct.body) @struct

; file-scope typedefs and using-aliases
(type_definition type: (_) @typedef.type declarator: (type_identifier) @typedef.name) @typedef

; syntax errors
(ERROR) @error
(MISSING) @missing
