"""Template arguments of kernels, followed from the host code of the same file.

Real programs rarely write `k<float><<<...>>>`: BabelStream launches `copy_kernel<<<...>>>(d_a, d_c)`
from a member of `template <class T> class CUDAStream` whose `T* d_a` fixes the kernel's `T` once
`template class CUDAStream<double>;` instantiates the class; cuda-samples' reduction launches
`reduce0<T><<<...>>>` from `template <class T> void reduce(...)`, instantiated for float. This module
answers, per launch site: which concrete types the host function's own template parameters stand for
(`host_bindings`), and the declared type of each launch argument (`argument_types`), so that the
kernel's type parameters can be deduced the way the compiler deduces them.
"""

from __future__ import annotations

from kernelscope.frontend.ctypes import normalise_type
from kernelscope.frontend.nodes import FIELD, ancestors, leaf_name as _leaf, node_text as _text

_DECLARATIONS = ("parameter_declaration", "declaration", "field_declaration", "optional_parameter_declaration")


def _template_parameters(node) -> list[str]:
    """Names of the template parameters of the template_declaration directly around `node`."""
    parent = node.parent
    if parent is None or parent.type != "template_declaration":
        return []
    names = []
    for param in parent.child_by_field_id(FIELD.parameters).named_children:
        declarator = param.child_by_field_id(FIELD.declarator)
        name = _leaf(declarator) if declarator is not None else ""
        if not name:
            name = next((_text(c) for c in param.named_children if c.type == "type_identifier"), "")
        names.append(name)
    return names


def _arguments(args_node) -> tuple:
    return tuple(" ".join(_text(c).split()) for c in args_node.named_children)


class HostTemplates:
    """The file's template instantiations and its functions', classes' and globals' declarations."""

    def __init__(self, root, captures: dict):
        """captures: the file's query captures by name, in source order (frontend.parse)."""
        self.root = root
        self._declared: dict = {}               # scope node id -> its ScopeDeclarations
        self.instances: dict[str, set] = {}     # template name -> argument tuples as written
        self.classes: dict[str, object] = {}    # class name -> class_specifier node with a body
        for name, args in zip(captures.get("template_id.name", []), captures.get("template_id.args", [])):
            self.instances.setdefault(_text(name).split("::")[-1], set()).add(_arguments(args))
        for node in captures.get("class", []) + captures.get("struct", []):
            name = node.child_by_field_id(FIELD.name)
            if name is not None:
                self.classes.setdefault(_text(name), node)

    def bindings_of(self, template_name: str, params: list[str]) -> dict:
        """Parameter -> argument of the one instantiation of a host template written with no
        template parameter in its arguments; {} when there is none or several."""
        written = {args for args in self.instances.get(template_name, ())
                   if len(args) == len(params) and not any(a in params for a in args)}
        return dict(zip(params, next(iter(written)))) if len(written) == 1 else {}

    def launch_context(self, launch_node) -> tuple[dict, list]:
        """(host template bindings, declared argument types) of a launch's call expression."""
        # (the nearest enclosing function, from one search down: see nodes.ancestors)
        function = next((a for a in ancestors(self.root, launch_node) if a.type == "function_definition"), None)
        if function is None:
            return {}, [self._declared_type(a, None, None) for a in self._launch_args(launch_node)]
        bindings, owner = {}, None
        declarator = function.child_by_field_id(FIELD.declarator)
        target = declarator.child_by_field_id(FIELD.declarator) if declarator is not None else None
        params = _template_parameters(function)
        if target is not None and target.type == "qualified_identifier":
            scope = target.child_by_field_id(FIELD.scope)
            owner_name = _text(scope.child_by_field_id(FIELD.name) if scope is not None and scope.type == "template_type"
                               else scope).split("<")[0].strip()
            owner = self.classes.get(owner_name)
            if params:
                bindings = self.bindings_of(owner_name, params)
        elif params and target is not None:
            name = target.child_by_field_id(FIELD.name) if target.type == "template_function" else target
            bindings = self.bindings_of(_text(name).split("::")[-1], params)
        if owner is None:
            # a member function defined inside its class
            parent = function.parent
            while parent is not None and parent.type not in ("class_specifier", "struct_specifier"):
                parent = parent.parent
            owner = parent
            if parent is not None and parent.child_by_field_id(FIELD.name) is not None and not bindings:
                bindings = self.bindings_of(_text(parent.child_by_field_id(FIELD.name)), _template_parameters(parent))
        types = [self._declared_type(a, function, owner) for a in self._launch_args(launch_node)]
        return bindings, [substitute(t, bindings) if t else None for t in types]

    @staticmethod
    def _launch_args(launch_node) -> list:
        args = launch_node.child_by_field_id(FIELD.arguments)
        return list(args.named_children) if args is not None else []

    def _declared_type(self, arg, function, owner) -> str | None:
        """The type of a launch argument: a cast's type, or an identifier's declared type
        ('float*' for `float* d_a`), looked up in the host function, its class, then the file."""
        if arg.type == "cast_expression":
            return normalise_type(_text(arg.child_by_field_id(FIELD.type)).replace(" ", ""))
        if arg.type != "identifier":
            return None
        name = _text(arg)
        for scope in (function, owner, self.root):
            if scope is None:
                continue
            # (one walk per scope, kept and resumed: a host function launches many kernels with
            # many arguments, and each search would walk the function again)
            declared = self._declared.get(scope.id)
            if declared is None:
                declared = self._declared[scope.id] = ScopeDeclarations(scope, nested=scope is not self.root)
            found = declared.first_type(name)
            if found:
                return found
        return None


_FILE_LEVEL = ("preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif", "linkage_specification",
               "namespace_definition", "declaration_list")


class ScopeDeclarations:
    """name -> the type of its first declaration in `scope` ('T*' / 'float'); at file scope (not
    `nested`) only declarations outside functions and classes count. One walk, depth first in
    source order, taken only as far as the names asked for: a launch's
    arguments are mostly declared near the top of the host function (its parameters, the device
    pointers it allocates), and a walk over the rest of its body cost most of a launch's host
    context. The walk stops once the name asked for is found and resumes when a later name is not
    yet; what it finds up to there is what the whole walk finds
    (tests/test_prefast7_scope_declarations.py compares)."""

    def __init__(self, scope, nested: bool):
        self._nested = nested
        self._stack = list(reversed(scope.children))
        self.found: dict = {}

    def first_type(self, name: str) -> str | None:
        """The type of name's first declaration in the scope, None if it has none."""
        self._walk_until(name)
        return self.found.get(name)

    def every_type(self) -> dict:
        """name -> the type of its first declaration, for every name declared in the scope (the
        whole walk; tests compare the stopped walks with it)."""
        self._walk_until(_NO_NAME)
        return self.found

    def _walk_until(self, name) -> None:
        found = self.found
        stack = self._stack
        while name not in found and stack:
            node = stack.pop()
            if node.type in _DECLARATIONS:
                _note_declaration(node, found)
            if self._nested or node.type in _FILE_LEVEL:
                stack.extend(reversed(node.children))


_NO_NAME = object()     # (what no declaration declares: a walk until it goes to the end)


def _note_declaration(node, found: dict) -> None:
    """Each name a declaration node declares, and its type, into found unless already there."""
    type_node = node.child_by_field_id(FIELD.type)
    if type_node is not None:
        for declarator in node.children_by_field_id(FIELD.declarator):
            name = _leaf(declarator)
            if name and name not in found:
                written = _text(declarator)
                stars = written.split(name)[0].count("*") + written.count("[")
                found[name] = normalise_type(_text(type_node)) + "*" * stars


def substitute(type_text: str, bindings: dict) -> str:
    """'T*' with {T: double} -> 'double*'."""
    if not bindings or not type_text:
        return type_text
    base = type_text.rstrip("*")
    return normalise_type(bindings.get(base, base)) + type_text[len(base):]


def deduce(kernel_params: list, type_params: set, argument_types: list) -> dict:
    """Template type parameters fixed by matching kernel parameters (`const T* a`) against the
    declared types of the launch's arguments (`double* d_a`), as C++ deduction does."""
    found: dict = {}
    for param, argument in zip(kernel_params, argument_types):
        if not argument or param.type_name not in type_params:
            continue
        stars = argument.count("*")
        wanted = 1 if param.is_pointer else 0
        if stars != wanted:
            continue
        concrete = argument.rstrip("*")
        if concrete in type_params:
            continue
        found.setdefault(param.type_name, concrete)
    return found
