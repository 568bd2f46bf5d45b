"""Methods of the classes `kernelscope.records.record` makes, written out so that importing them
compiles nothing. Written by tools/write_record_methods.py from the classes as they are; do not edit.
Run that tool again after changing a record class (tests/test_records.py says when).

CLASSES: qualified class name -> (shape, factory, docstring or None). `shape` is what the methods
depend on (records.class_shape); a factory takes the class and the defaults of its fields that have
one (values, or the callables of default_factory fields), in field order.
"""

from dataclasses import FrozenInstanceError

from kernelscope.records import FACTORY as _FACTORY

_object_setattr = object.__setattr__


def _kernelscope_analyses_intensity_IntensityResult(cls, defaults):
    _dflt_flops_by_precision, _dflt_special_ops_per_thread, _dflt_global_bytes_per_thread, _dflt_shared_bytes_per_thread, _dflt_arithmetic_intensity, _dflt_bound, _dflt_gpu, _dflt_ridge_point, _dflt_attainable_flops, _dflt_threads_launched, _dflt_total_flops, _dflt_total_global_bytes, _dflt_symbolic, _dflt_dominant_precision = defaults

    def __init__(self, flops_per_thread, flops_by_precision=_FACTORY, special_ops_per_thread=_dflt_special_ops_per_thread, global_bytes_per_thread=_dflt_global_bytes_per_thread, shared_bytes_per_thread=_dflt_shared_bytes_per_thread, arithmetic_intensity=_dflt_arithmetic_intensity, bound=_dflt_bound, gpu=_dflt_gpu, ridge_point=_dflt_ridge_point, attainable_flops=_dflt_attainable_flops, threads_launched=_dflt_threads_launched, total_flops=_dflt_total_flops, total_global_bytes=_dflt_total_global_bytes, symbolic=_FACTORY, dominant_precision=_dflt_dominant_precision):
        self.flops_per_thread = flops_per_thread
        self.flops_by_precision = _dflt_flops_by_precision() if flops_by_precision is _FACTORY else flops_by_precision
        self.special_ops_per_thread = special_ops_per_thread
        self.global_bytes_per_thread = global_bytes_per_thread
        self.shared_bytes_per_thread = shared_bytes_per_thread
        self.arithmetic_intensity = arithmetic_intensity
        self.bound = bound
        self.gpu = gpu
        self.ridge_point = ridge_point
        self.attainable_flops = attainable_flops
        self.threads_launched = threads_launched
        self.total_flops = total_flops
        self.total_global_bytes = total_global_bytes
        self.symbolic = _dflt_symbolic() if symbolic is _FACTORY else symbolic
        self.dominant_precision = dominant_precision

    def __repr__(self):
        return self.__class__.__qualname__ + f"(flops_per_thread={self.flops_per_thread!r}, flops_by_precision={self.flops_by_precision!r}, special_ops_per_thread={self.special_ops_per_thread!r}, global_bytes_per_thread={self.global_bytes_per_thread!r}, shared_bytes_per_thread={self.shared_bytes_per_thread!r}, arithmetic_intensity={self.arithmetic_intensity!r}, bound={self.bound!r}, gpu={self.gpu!r}, ridge_point={self.ridge_point!r}, attainable_flops={self.attainable_flops!r}, threads_launched={self.threads_launched!r}, total_flops={self.total_flops!r}, total_global_bytes={self.total_global_bytes!r}, symbolic={self.symbolic!r}, dominant_precision={self.dominant_precision!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.flops_per_thread, self.flops_by_precision, self.special_ops_per_thread, self.global_bytes_per_thread, self.shared_bytes_per_thread, self.arithmetic_intensity, self.bound, self.gpu, self.ridge_point, self.attainable_flops, self.threads_launched, self.total_flops, self.total_global_bytes, self.symbolic, self.dominant_precision,) == (other.flops_per_thread, other.flops_by_precision, other.special_ops_per_thread, other.global_bytes_per_thread, other.shared_bytes_per_thread, other.arithmetic_intensity, other.bound, other.gpu, other.ridge_point, other.attainable_flops, other.threads_launched, other.total_flops, other.total_global_bytes, other.symbolic, other.dominant_precision,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_analyses_memory_AccessResult(cls, defaults):
    _dflt_sectors_per_request, _dflt_ideal_sectors, _dflt_bank_ways, _dflt_wavefronts_per_request, _dflt_exec_weight, _dflt_requests_per_block, _dflt_active_lanes, _dflt_in_function, _dflt_note, _dflt_averaging_weight = defaults

    def __init__(self, line, column, expr, array, space, op, elem_bytes, pattern, stride_bytes, sectors_per_request=_dflt_sectors_per_request, ideal_sectors=_dflt_ideal_sectors, bank_ways=_dflt_bank_ways, wavefronts_per_request=_dflt_wavefronts_per_request, exec_weight=_dflt_exec_weight, requests_per_block=_dflt_requests_per_block, active_lanes=_dflt_active_lanes, in_function=_dflt_in_function, note=_dflt_note, averaging_weight=_dflt_averaging_weight):
        self.line = line
        self.column = column
        self.expr = expr
        self.array = array
        self.space = space
        self.op = op
        self.elem_bytes = elem_bytes
        self.pattern = pattern
        self.stride_bytes = stride_bytes
        self.sectors_per_request = sectors_per_request
        self.ideal_sectors = ideal_sectors
        self.bank_ways = bank_ways
        self.wavefronts_per_request = wavefronts_per_request
        self.exec_weight = exec_weight
        self.requests_per_block = requests_per_block
        self.active_lanes = active_lanes
        self.in_function = in_function
        self.note = note
        self.averaging_weight = averaging_weight

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r}, expr={self.expr!r}, array={self.array!r}, space={self.space!r}, op={self.op!r}, elem_bytes={self.elem_bytes!r}, pattern={self.pattern!r}, stride_bytes={self.stride_bytes!r}, sectors_per_request={self.sectors_per_request!r}, ideal_sectors={self.ideal_sectors!r}, bank_ways={self.bank_ways!r}, wavefronts_per_request={self.wavefronts_per_request!r}, exec_weight={self.exec_weight!r}, requests_per_block={self.requests_per_block!r}, active_lanes={self.active_lanes!r}, in_function={self.in_function!r}, note={self.note!r}, averaging_weight={self.averaging_weight!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column, self.expr, self.array, self.space, self.op, self.elem_bytes, self.pattern, self.stride_bytes, self.sectors_per_request, self.ideal_sectors, self.bank_ways, self.wavefronts_per_request, self.exec_weight, self.requests_per_block, self.active_lanes, self.in_function, self.note, self.averaging_weight,) == (other.line, other.column, other.expr, other.array, other.space, other.op, other.elem_bytes, other.pattern, other.stride_bytes, other.sectors_per_request, other.ideal_sectors, other.bank_ways, other.wavefronts_per_request, other.exec_weight, other.requests_per_block, other.active_lanes, other.in_function, other.note, other.averaging_weight,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_analyses_memory_BranchResult(cls, defaults):

    def __init__(self, line, column, kind, divergent, share_true, divergent_warps, in_loop):
        self.line = line
        self.column = column
        self.kind = kind
        self.divergent = divergent
        self.share_true = share_true
        self.divergent_warps = divergent_warps
        self.in_loop = in_loop

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r}, kind={self.kind!r}, divergent={self.divergent!r}, share_true={self.share_true!r}, divergent_warps={self.divergent_warps!r}, in_loop={self.in_loop!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column, self.kind, self.divergent, self.share_true, self.divergent_warps, self.in_loop,) == (other.line, other.column, other.kind, other.divergent, other.share_true, other.divergent_warps, other.in_loop,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_analyses_memory_MemoryResult(cls, defaults):
    _dflt_accesses, _dflt_branches = defaults

    def __init__(self, accesses=_FACTORY, branches=_FACTORY):
        self.accesses = _dflt_accesses() if accesses is _FACTORY else accesses
        self.branches = _dflt_branches() if branches is _FACTORY else branches

    def __repr__(self):
        return self.__class__.__qualname__ + f"(accesses={self.accesses!r}, branches={self.branches!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.accesses, self.branches,) == (other.accesses, other.branches,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_analyses_occupancy_OccupancyResult(cls, defaults):
    _dflt_sweep, _dflt_best_block_size = defaults

    def __init__(self, arch, block_size, registers, registers_source, static_shared_bytes, dynamic_shared_bytes, barriers, max_threads_per_block, active_blocks_per_sm, active_warps_per_sm, max_warps_per_sm, theoretical_occupancy, limiter, limits, allocated_registers_per_block, allocated_shared_bytes_per_block, shared_memory_config_bytes, carveout, shared_memory_opt_in, sweep=_dflt_sweep, best_block_size=_dflt_best_block_size):
        _object_setattr(self, '__dict__', {'arch': arch, 'block_size': block_size, 'registers': registers, 'registers_source': registers_source, 'static_shared_bytes': static_shared_bytes, 'dynamic_shared_bytes': dynamic_shared_bytes, 'barriers': barriers, 'max_threads_per_block': max_threads_per_block, 'active_blocks_per_sm': active_blocks_per_sm, 'active_warps_per_sm': active_warps_per_sm, 'max_warps_per_sm': max_warps_per_sm, 'theoretical_occupancy': theoretical_occupancy, 'limiter': limiter, 'limits': limits, 'allocated_registers_per_block': allocated_registers_per_block, 'allocated_shared_bytes_per_block': allocated_shared_bytes_per_block, 'shared_memory_config_bytes': shared_memory_config_bytes, 'carveout': carveout, 'shared_memory_opt_in': shared_memory_opt_in, 'sweep': sweep, 'best_block_size': best_block_size})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(arch={self.arch!r}, block_size={self.block_size!r}, registers={self.registers!r}, registers_source={self.registers_source!r}, static_shared_bytes={self.static_shared_bytes!r}, dynamic_shared_bytes={self.dynamic_shared_bytes!r}, barriers={self.barriers!r}, max_threads_per_block={self.max_threads_per_block!r}, active_blocks_per_sm={self.active_blocks_per_sm!r}, active_warps_per_sm={self.active_warps_per_sm!r}, max_warps_per_sm={self.max_warps_per_sm!r}, theoretical_occupancy={self.theoretical_occupancy!r}, limiter={self.limiter!r}, limits={self.limits!r}, allocated_registers_per_block={self.allocated_registers_per_block!r}, allocated_shared_bytes_per_block={self.allocated_shared_bytes_per_block!r}, shared_memory_config_bytes={self.shared_memory_config_bytes!r}, carveout={self.carveout!r}, shared_memory_opt_in={self.shared_memory_opt_in!r}, best_block_size={self.best_block_size!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.arch, self.block_size, self.registers, self.registers_source, self.static_shared_bytes, self.dynamic_shared_bytes, self.barriers, self.max_threads_per_block, self.active_blocks_per_sm, self.active_warps_per_sm, self.max_warps_per_sm, self.theoretical_occupancy, self.limiter, self.limits, self.allocated_registers_per_block, self.allocated_shared_bytes_per_block, self.shared_memory_config_bytes, self.carveout, self.shared_memory_opt_in, self.sweep, self.best_block_size,) == (other.arch, other.block_size, other.registers, other.registers_source, other.static_shared_bytes, other.dynamic_shared_bytes, other.barriers, other.max_threads_per_block, other.active_blocks_per_sm, other.active_warps_per_sm, other.max_warps_per_sm, other.theoretical_occupancy, other.limiter, other.limits, other.allocated_registers_per_block, other.allocated_shared_bytes_per_block, other.shared_memory_config_bytes, other.carveout, other.shared_memory_opt_in, other.sweep, other.best_block_size,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('arch', 'block_size', 'registers', 'registers_source', 'static_shared_bytes', 'dynamic_shared_bytes', 'barriers', 'max_threads_per_block', 'active_blocks_per_sm', 'active_warps_per_sm', 'max_warps_per_sm', 'theoretical_occupancy', 'limiter', 'limits', 'allocated_registers_per_block', 'allocated_shared_bytes_per_block', 'shared_memory_config_bytes', 'carveout', 'shared_memory_opt_in', 'sweep', 'best_block_size',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('arch', 'block_size', 'registers', 'registers_source', 'static_shared_bytes', 'dynamic_shared_bytes', 'barriers', 'max_threads_per_block', 'active_blocks_per_sm', 'active_warps_per_sm', 'max_warps_per_sm', 'theoretical_occupancy', 'limiter', 'limits', 'allocated_registers_per_block', 'allocated_shared_bytes_per_block', 'shared_memory_config_bytes', 'carveout', 'shared_memory_opt_in', 'sweep', 'best_block_size',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.arch, self.block_size, self.registers, self.registers_source, self.static_shared_bytes, self.dynamic_shared_bytes, self.barriers, self.max_threads_per_block, self.active_blocks_per_sm, self.active_warps_per_sm, self.max_warps_per_sm, self.theoretical_occupancy, self.limiter, self.limits, self.allocated_registers_per_block, self.allocated_shared_bytes_per_block, self.shared_memory_config_bytes, self.carveout, self.shared_memory_opt_in, self.sweep, self.best_block_size,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_occupancy_SweepPoint(cls, defaults):

    def __init__(self, block_size, active_blocks_per_sm, theoretical_occupancy):
        _object_setattr(self, '__dict__', {'block_size': block_size, 'active_blocks_per_sm': active_blocks_per_sm, 'theoretical_occupancy': theoretical_occupancy})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(block_size={self.block_size!r}, active_blocks_per_sm={self.active_blocks_per_sm!r}, theoretical_occupancy={self.theoretical_occupancy!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.block_size, self.active_blocks_per_sm, self.theoretical_occupancy,) == (other.block_size, other.active_blocks_per_sm, other.theoretical_occupancy,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('block_size', 'active_blocks_per_sm', 'theoretical_occupancy',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('block_size', 'active_blocks_per_sm', 'theoretical_occupancy',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.block_size, self.active_blocks_per_sm, self.theoretical_occupancy,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_sync_AtomicContention(cls, defaults):

    def __init__(self, array, line, column, lanes, in_loop):
        _object_setattr(self, '__dict__', {'array': array, 'line': line, 'column': column, 'lanes': lanes, 'in_loop': in_loop})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(array={self.array!r}, line={self.line!r}, column={self.column!r}, lanes={self.lanes!r}, in_loop={self.in_loop!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.array, self.line, self.column, self.lanes, self.in_loop,) == (other.array, other.line, other.column, other.lanes, other.in_loop,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('array', 'line', 'column', 'lanes', 'in_loop',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('array', 'line', 'column', 'lanes', 'in_loop',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.array, self.line, self.column, self.lanes, self.in_loop,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_sync_DivergentBarrier(cls, defaults):

    def __init__(self, line, column, reason):
        _object_setattr(self, '__dict__', {'line': line, 'column': column, 'reason': reason})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r}, reason={self.reason!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column, self.reason,) == (other.line, other.column, other.reason,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('line', 'column', 'reason',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('line', 'column', 'reason',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.line, self.column, self.reason,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_sync_LoopNode(cls, defaults):
    _dflt_children, _dflt_carried, _dflt_quiet, _dflt_batchable, _dflt_nest_batchable, _dflt_read_after, _dflt_plain_steps = defaults

    def __init__(self, loop, children=_FACTORY, carried=_dflt_carried, quiet=_dflt_quiet, batchable=_dflt_batchable, nest_batchable=_dflt_nest_batchable, read_after=_dflt_read_after, plain_steps=_dflt_plain_steps):
        self.loop = loop
        self.children = _dflt_children() if children is _FACTORY else children
        self.carried = carried
        self.quiet = quiet
        self.batchable = batchable
        self.nest_batchable = nest_batchable
        self.read_after = read_after
        self.plain_steps = plain_steps

    def __repr__(self):
        return self.__class__.__qualname__ + f"(loop={self.loop!r}, children={self.children!r}, carried={self.carried!r}, quiet={self.quiet!r}, batchable={self.batchable!r}, nest_batchable={self.nest_batchable!r}, read_after={self.read_after!r}, plain_steps={self.plain_steps!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.loop, self.children, self.carried, self.quiet, self.batchable, self.nest_batchable, self.read_after, self.plain_steps,) == (other.loop, other.children, other.carried, other.quiet, other.batchable, other.nest_batchable, other.read_after, other.plain_steps,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_analyses_sync_MaskMismatch(cls, defaults):

    def __init__(self, name, line, column, message):
        _object_setattr(self, '__dict__', {'name': name, 'line': line, 'column': column, 'message': message})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, line={self.line!r}, column={self.column!r}, message={self.message!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.line, self.column, self.message,) == (other.name, other.line, other.column, other.message,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'line', 'column', 'message',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'line', 'column', 'message',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.line, self.column, self.message,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_sync_ReturnBeforeBarrier(cls, defaults):

    def __init__(self, line, column, barrier_line, message):
        _object_setattr(self, '__dict__', {'line': line, 'column': column, 'barrier_line': barrier_line, 'message': message})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r}, barrier_line={self.barrier_line!r}, message={self.message!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column, self.barrier_line, self.message,) == (other.line, other.column, other.barrier_line, other.message,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('line', 'column', 'barrier_line', 'message',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('line', 'column', 'barrier_line', 'message',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.line, self.column, self.barrier_line, self.message,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_sync_SharedRace(cls, defaults):
    _dflt_one_store, = defaults

    def __init__(self, array, kind, first_line, first_column, second_line, second_column, scope, message, one_store=_dflt_one_store):
        _object_setattr(self, '__dict__', {'array': array, 'kind': kind, 'first_line': first_line, 'first_column': first_column, 'second_line': second_line, 'second_column': second_column, 'scope': scope, 'message': message, 'one_store': one_store})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(array={self.array!r}, kind={self.kind!r}, first_line={self.first_line!r}, first_column={self.first_column!r}, second_line={self.second_line!r}, second_column={self.second_column!r}, scope={self.scope!r}, message={self.message!r}, one_store={self.one_store!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.array, self.kind, self.first_line, self.first_column, self.second_line, self.second_column, self.scope, self.message, self.one_store,) == (other.array, other.kind, other.first_line, other.first_column, other.second_line, other.second_column, other.scope, other.message, other.one_store,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('array', 'kind', 'first_line', 'first_column', 'second_line', 'second_column', 'scope', 'message', 'one_store',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('array', 'kind', 'first_line', 'first_column', 'second_line', 'second_column', 'scope', 'message', 'one_store',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.array, self.kind, self.first_line, self.first_column, self.second_line, self.second_column, self.scope, self.message, self.one_store,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_sync_Site(cls, defaults):

    def __init__(self, name, line, column):
        _object_setattr(self, '__dict__', {'name': name, 'line': line, 'column': column})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, line={self.line!r}, column={self.column!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.line, self.column,) == (other.name, other.line, other.column,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'line', 'column',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'line', 'column',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.line, self.column,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_sync_SyncResult(cls, defaults):
    _dflt_divergent_barriers, _dflt_shared_races, _dflt_global_races, _dflt_returns_before_barrier, _dflt_redundant_barriers, _dflt_mask_mismatches, _dflt_atomic_count, _dflt_atomics_in_loops, _dflt_contention, _dflt_fences, _dflt_exact, _dflt_notes = defaults

    def __init__(self, barriers, divergent_barriers=_dflt_divergent_barriers, shared_races=_dflt_shared_races, global_races=_dflt_global_races, returns_before_barrier=_dflt_returns_before_barrier, redundant_barriers=_dflt_redundant_barriers, mask_mismatches=_dflt_mask_mismatches, atomic_count=_dflt_atomic_count, atomics_in_loops=_dflt_atomics_in_loops, contention=_dflt_contention, fences=_dflt_fences, exact=_dflt_exact, notes=_dflt_notes):
        _object_setattr(self, '__dict__', {'barriers': barriers, 'divergent_barriers': divergent_barriers, 'shared_races': shared_races, 'global_races': global_races, 'returns_before_barrier': returns_before_barrier, 'redundant_barriers': redundant_barriers, 'mask_mismatches': mask_mismatches, 'atomic_count': atomic_count, 'atomics_in_loops': atomics_in_loops, 'contention': contention, 'fences': fences, 'exact': exact, 'notes': notes})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(barriers={self.barriers!r}, divergent_barriers={self.divergent_barriers!r}, shared_races={self.shared_races!r}, global_races={self.global_races!r}, returns_before_barrier={self.returns_before_barrier!r}, redundant_barriers={self.redundant_barriers!r}, mask_mismatches={self.mask_mismatches!r}, atomic_count={self.atomic_count!r}, atomics_in_loops={self.atomics_in_loops!r}, contention={self.contention!r}, fences={self.fences!r}, exact={self.exact!r}, notes={self.notes!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.barriers, self.divergent_barriers, self.shared_races, self.global_races, self.returns_before_barrier, self.redundant_barriers, self.mask_mismatches, self.atomic_count, self.atomics_in_loops, self.contention, self.fences, self.exact, self.notes,) == (other.barriers, other.divergent_barriers, other.shared_races, other.global_races, other.returns_before_barrier, other.redundant_barriers, other.mask_mismatches, other.atomic_count, other.atomics_in_loops, other.contention, other.fences, other.exact, other.notes,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('barriers', 'divergent_barriers', 'shared_races', 'global_races', 'returns_before_barrier', 'redundant_barriers', 'mask_mismatches', 'atomic_count', 'atomics_in_loops', 'contention', 'fences', 'exact', 'notes',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('barriers', 'divergent_barriers', 'shared_races', 'global_races', 'returns_before_barrier', 'redundant_barriers', 'mask_mismatches', 'atomic_count', 'atomics_in_loops', 'contention', 'fences', 'exact', 'notes',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.barriers, self.divergent_barriers, self.shared_races, self.global_races, self.returns_before_barrier, self.redundant_barriers, self.mask_mismatches, self.atomic_count, self.atomics_in_loops, self.contention, self.fences, self.exact, self.notes,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_threads_BlockShape(cls, defaults):
    _dflt_y, _dflt_z = defaults

    def __init__(self, x, y=_dflt_y, z=_dflt_z):
        _object_setattr(self, '__dict__', {'x': x, 'y': y, 'z': z})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(x={self.x!r}, y={self.y!r}, z={self.z!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.x, self.y, self.z,) == (other.x, other.y, other.z,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('x', 'y', 'z',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('x', 'y', 'z',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.x, self.y, self.z,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyses_threads_ThreadSpace(cls, defaults):

    def __init__(self, block, linear, lane, warp, active, env):
        _object_setattr(self, '__dict__', {'block': block, 'linear': linear, 'lane': lane, 'warp': warp, 'active': active, 'env': env})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(block={self.block!r}, linear={self.linear!r}, lane={self.lane!r}, warp={self.warp!r}, active={self.active!r}, env={self.env!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.block, self.linear, self.lane, self.warp, self.active, self.env,) == (other.block, other.linear, other.lane, other.warp, other.active, other.env,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('block', 'linear', 'lane', 'warp', 'active', 'env',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('block', 'linear', 'lane', 'warp', 'active', 'env',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.block, self.linear, self.lane, self.warp, self.active, self.env,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyze_FileResult(cls, defaults):
    _dflt_model, _dflt_notes = defaults

    def __init__(self, path, errors, kernels, diagnostics, model=_dflt_model, notes=_FACTORY):
        self.path = path
        self.errors = errors
        self.kernels = kernels
        self.diagnostics = diagnostics
        self.model = model
        self.notes = _dflt_notes() if notes is _FACTORY else notes

    def __repr__(self):
        return self.__class__.__qualname__ + f"(path={self.path!r}, errors={self.errors!r}, kernels={self.kernels!r}, diagnostics={self.diagnostics!r}, model={self.model!r}, notes={self.notes!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.path, self.errors, self.kernels, self.diagnostics, self.model, self.notes,) == (other.path, other.errors, other.kernels, other.diagnostics, other.model, other.notes,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_analyze_KernelResult(cls, defaults):
    _dflt_occupancy, _dflt_intensity, _dflt_sync, _dflt_resources, _dflt_diagnostics, _dflt_launches, _dflt_path, _dflt_rejected_launches, _dflt_plan = defaults

    def __init__(self, kernel, block, block_source, grid, memory, occupancy=_dflt_occupancy, intensity=_dflt_intensity, sync=_dflt_sync, resources=_dflt_resources, diagnostics=_FACTORY, launches=_FACTORY, path=_dflt_path, rejected_launches=_FACTORY, plan=_dflt_plan):
        self.kernel = kernel
        self.block = block
        self.block_source = block_source
        self.grid = grid
        self.memory = memory
        self.occupancy = occupancy
        self.intensity = intensity
        self.sync = sync
        self.resources = resources
        self.diagnostics = _dflt_diagnostics() if diagnostics is _FACTORY else diagnostics
        self.launches = _dflt_launches() if launches is _FACTORY else launches
        self.path = path
        self.rejected_launches = _dflt_rejected_launches() if rejected_launches is _FACTORY else rejected_launches
        self.plan = plan

    def __repr__(self):
        return self.__class__.__qualname__ + f"(kernel={self.kernel!r}, block={self.block!r}, block_source={self.block_source!r}, grid={self.grid!r}, memory={self.memory!r}, occupancy={self.occupancy!r}, intensity={self.intensity!r}, sync={self.sync!r}, resources={self.resources!r}, diagnostics={self.diagnostics!r}, launches={self.launches!r}, path={self.path!r}, rejected_launches={self.rejected_launches!r}, plan={self.plan!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.kernel, self.block, self.block_source, self.grid, self.memory, self.occupancy, self.intensity, self.sync, self.resources, self.diagnostics, self.launches, self.path, self.rejected_launches, self.plan,) == (other.kernel, other.block, other.block_source, other.grid, other.memory, other.occupancy, other.intensity, other.sync, other.resources, other.diagnostics, other.launches, other.path, other.rejected_launches, other.plan,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_analyze_LaunchResult(cls, defaults):

    def __init__(self, line, column, block, grid, dynamic_shared_bytes, load_sectors_per_request, store_sectors_per_request, active_blocks_per_sm, theoretical_occupancy):
        _object_setattr(self, '__dict__', {'line': line, 'column': column, 'block': block, 'grid': grid, 'dynamic_shared_bytes': dynamic_shared_bytes, 'load_sectors_per_request': load_sectors_per_request, 'store_sectors_per_request': store_sectors_per_request, 'active_blocks_per_sm': active_blocks_per_sm, 'theoretical_occupancy': theoretical_occupancy})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r}, block={self.block!r}, grid={self.grid!r}, dynamic_shared_bytes={self.dynamic_shared_bytes!r}, load_sectors_per_request={self.load_sectors_per_request!r}, store_sectors_per_request={self.store_sectors_per_request!r}, active_blocks_per_sm={self.active_blocks_per_sm!r}, theoretical_occupancy={self.theoretical_occupancy!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column, self.block, self.grid, self.dynamic_shared_bytes, self.load_sectors_per_request, self.store_sectors_per_request, self.active_blocks_per_sm, self.theoretical_occupancy,) == (other.line, other.column, other.block, other.grid, other.dynamic_shared_bytes, other.load_sectors_per_request, other.store_sectors_per_request, other.active_blocks_per_sm, other.theoretical_occupancy,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('line', 'column', 'block', 'grid', 'dynamic_shared_bytes', 'load_sectors_per_request', 'store_sectors_per_request', 'active_blocks_per_sm', 'theoretical_occupancy',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('line', 'column', 'block', 'grid', 'dynamic_shared_bytes', 'load_sectors_per_request', 'store_sectors_per_request', 'active_blocks_per_sm', 'theoretical_occupancy',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.line, self.column, self.block, self.grid, self.dynamic_shared_bytes, self.load_sectors_per_request, self.store_sectors_per_request, self.active_blocks_per_sm, self.theoretical_occupancy,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_analyze_Options(cls, defaults):
    _dflt_arch, _dflt_block, _dflt_grid, _dflt_bindings, _dflt_types, _dflt_defines, _dflt_registers, _dflt_dynamic_smem, _dflt_preprocess, _dflt_enabled, _dflt_plan = defaults

    def __init__(self, arch=_dflt_arch, block=_dflt_block, grid=_dflt_grid, bindings=_FACTORY, types=_FACTORY, defines=_FACTORY, registers=_dflt_registers, dynamic_smem=_dflt_dynamic_smem, preprocess=_dflt_preprocess, enabled=_dflt_enabled, plan=_dflt_plan):
        self.arch = arch
        self.block = block
        self.grid = grid
        self.bindings = _dflt_bindings() if bindings is _FACTORY else bindings
        self.types = _dflt_types() if types is _FACTORY else types
        self.defines = _dflt_defines() if defines is _FACTORY else defines
        self.registers = registers
        self.dynamic_smem = dynamic_smem
        self.preprocess = preprocess
        self.enabled = enabled
        self.plan = plan

    def __repr__(self):
        return self.__class__.__qualname__ + f"(arch={self.arch!r}, block={self.block!r}, grid={self.grid!r}, bindings={self.bindings!r}, types={self.types!r}, defines={self.defines!r}, registers={self.registers!r}, dynamic_smem={self.dynamic_smem!r}, preprocess={self.preprocess!r}, enabled={self.enabled!r}, plan={self.plan!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.arch, self.block, self.grid, self.bindings, self.types, self.defines, self.registers, self.dynamic_smem, self.preprocess, self.enabled, self.plan,) == (other.arch, other.block, other.grid, other.bindings, other.types, other.defines, other.registers, other.dynamic_smem, other.preprocess, other.enabled, other.plan,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_analyze_RejectedLaunch(cls, defaults):

    def __init__(self, line, column, threads, limit):
        _object_setattr(self, '__dict__', {'line': line, 'column': column, 'threads': threads, 'limit': limit})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r}, threads={self.threads!r}, limit={self.limit!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column, self.threads, self.limit,) == (other.line, other.column, other.threads, other.limit,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('line', 'column', 'threads', 'limit',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('line', 'column', 'threads', 'limit',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.line, self.column, self.threads, self.limit,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_frontend_body_Pointer(cls, defaults):
    _dflt_dims, = defaults

    def __init__(self, base, space, offset, pointee, dims=_dflt_dims):
        self.base = base
        self.space = space
        self.offset = offset
        self.pointee = pointee
        self.dims = dims

    def __repr__(self):
        return self.__class__.__qualname__ + f"(base={self.base!r}, space={self.space!r}, offset={self.offset!r}, pointee={self.pointee!r}, dims={self.dims!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.base, self.space, self.offset, self.pointee, self.dims,) == (other.base, other.space, other.offset, other.pointee, other.dims,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_frontend_body_Scope(cls, defaults):
    _dflt_accesses, _dflt_loops, _dflt_branches, _dflt_barriers, _dflt_calls, _dflt_arith, _dflt_shared_arrays, _dflt_local_arrays, _dflt_dynamic_local_accesses, _dflt_early_returns, _dflt_flags, _dflt_notes, _dflt_counter = defaults

    def __init__(self, accesses=_FACTORY, loops=_FACTORY, branches=_FACTORY, barriers=_FACTORY, calls=_FACTORY, arith=_FACTORY, shared_arrays=_FACTORY, local_arrays=_FACTORY, dynamic_local_accesses=_FACTORY, early_returns=_FACTORY, flags=_FACTORY, notes=_FACTORY, counter=_dflt_counter):
        self.accesses = _dflt_accesses() if accesses is _FACTORY else accesses
        self.loops = _dflt_loops() if loops is _FACTORY else loops
        self.branches = _dflt_branches() if branches is _FACTORY else branches
        self.barriers = _dflt_barriers() if barriers is _FACTORY else barriers
        self.calls = _dflt_calls() if calls is _FACTORY else calls
        self.arith = _dflt_arith() if arith is _FACTORY else arith
        self.shared_arrays = _dflt_shared_arrays() if shared_arrays is _FACTORY else shared_arrays
        self.local_arrays = _dflt_local_arrays() if local_arrays is _FACTORY else local_arrays
        self.dynamic_local_accesses = _dflt_dynamic_local_accesses() if dynamic_local_accesses is _FACTORY else dynamic_local_accesses
        self.early_returns = _dflt_early_returns() if early_returns is _FACTORY else early_returns
        self.flags = _dflt_flags() if flags is _FACTORY else flags
        self.notes = _dflt_notes() if notes is _FACTORY else notes
        self.counter = counter

    def __repr__(self):
        return self.__class__.__qualname__ + f"(accesses={self.accesses!r}, loops={self.loops!r}, branches={self.branches!r}, barriers={self.barriers!r}, calls={self.calls!r}, arith={self.arith!r}, shared_arrays={self.shared_arrays!r}, local_arrays={self.local_arrays!r}, dynamic_local_accesses={self.dynamic_local_accesses!r}, early_returns={self.early_returns!r}, flags={self.flags!r}, notes={self.notes!r}, counter={self.counter!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.accesses, self.loops, self.branches, self.barriers, self.calls, self.arith, self.shared_arrays, self.local_arrays, self.dynamic_local_accesses, self.early_returns, self.flags, self.notes, self.counter,) == (other.accesses, other.loops, other.branches, other.barriers, other.calls, other.arith, other.shared_arrays, other.local_arrays, other.dynamic_local_accesses, other.early_returns, other.flags, other.notes, other.counter,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_frontend_body_Value(cls, defaults):
    _dflt_ctype, _dflt_pointer, _dflt_dims, _dflt_location = defaults

    def __init__(self, expr, ctype=_dflt_ctype, pointer=_dflt_pointer, dims=_dflt_dims, location=_dflt_location):
        self.expr = expr
        self.ctype = ctype
        self.pointer = pointer
        self.dims = dims
        self.location = location

    def __repr__(self):
        return self.__class__.__qualname__ + f"(expr={self.expr!r}, ctype={self.ctype!r}, pointer={self.pointer!r}, dims={self.dims!r}, location={self.location!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.expr, self.ctype, self.pointer, self.dims, self.location,) == (other.expr, other.ctype, other.pointer, other.dims, other.location,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_frontend_ctypes_Field(cls, defaults):
    _dflt_count, = defaults

    def __init__(self, name, type_name, offset, size, count=_dflt_count):
        self.name = name
        self.type_name = type_name
        self.offset = offset
        self.size = size
        self.count = count

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, type_name={self.type_name!r}, offset={self.offset!r}, size={self.size!r}, count={self.count!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.type_name, self.offset, self.size, self.count,) == (other.name, other.type_name, other.offset, other.size, other.count,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_frontend_ctypes_StructLayout(cls, defaults):
    _dflt_fields, = defaults

    def __init__(self, name, size, align, fields=_FACTORY):
        self.name = name
        self.size = size
        self.align = align
        self.fields = _dflt_fields() if fields is _FACTORY else fields

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, size={self.size!r}, align={self.align!r}, fields={self.fields!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.size, self.align, self.fields,) == (other.name, other.size, other.align, other.fields,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_frontend_macros_Macro(cls, defaults):
    _dflt_params, _dflt_variadic, _dflt_line, _dflt__tokens = defaults

    def __init__(self, name, body, params=_dflt_params, variadic=_dflt_variadic, line=_dflt_line, _tokens=_dflt__tokens):
        self.name = name
        self.body = body
        self.params = params
        self.variadic = variadic
        self.line = line
        self._tokens = _tokens

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, body={self.body!r}, params={self.params!r}, variadic={self.variadic!r}, line={self.line!r}, _tokens={self._tokens!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.body, self.params, self.variadic, self.line, self._tokens,) == (other.name, other.body, other.params, other.variadic, other.line, other._tokens,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_frontend_macros_Preprocessed(cls, defaults):
    _dflt_errors, _dflt__line_starts, _dflt__line_cols, _dflt__last_piece, _dflt__last_line = defaults

    def __init__(self, text, original, positions, macros, errors=_FACTORY, _line_starts=_FACTORY, _line_cols=_FACTORY, _last_piece=_dflt__last_piece, _last_line=_dflt__last_line):
        self.text = text
        self.original = original
        self.positions = positions
        self.macros = macros
        self.errors = _dflt_errors() if errors is _FACTORY else errors
        self._line_starts = _dflt__line_starts() if _line_starts is _FACTORY else _line_starts
        self._line_cols = _dflt__line_cols() if _line_cols is _FACTORY else _line_cols
        self._last_piece = _last_piece
        self._last_line = _last_line

    def __repr__(self):
        return self.__class__.__qualname__ + f"(text={self.text!r}, original={self.original!r}, positions={self.positions!r}, macros={self.macros!r}, errors={self.errors!r}, _line_starts={self._line_starts!r}, _line_cols={self._line_cols!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.text, self.original, self.positions, self.macros, self.errors, self._line_starts, self._line_cols,) == (other.text, other.original, other.positions, other.macros, other.errors, other._line_starts, other._line_cols,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_frontend_shims_LaunchBoundsMark(cls, defaults):

    def __init__(self, offset, arguments):
        _object_setattr(self, '__dict__', {'offset': offset, 'arguments': arguments})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(offset={self.offset!r}, arguments={self.arguments!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.offset, self.arguments,) == (other.offset, other.arguments,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('offset', 'arguments',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('offset', 'arguments',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.offset, self.arguments,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_frontend_source_SourceText(cls, defaults):

    def __init__(self, path, text, encoding):
        _object_setattr(self, '__dict__', {'path': path, 'text': text, 'encoding': encoding})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(path={self.path!r}, text={self.text!r}, encoding={self.encoding!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.path, self.text, self.encoding,) == (other.path, other.text, other.encoding,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('path', 'text', 'encoding',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('path', 'text', 'encoding',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.path, self.text, self.encoding,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_lint_config_Overrides(cls, defaults):
    _dflt_select, _dflt_ignore, _dflt_severity, _dflt_include, _dflt_extend_exclude, _dflt_arch, _dflt_block, _dflt_grid, _dflt_bindings, _dflt_defines, _dflt_types, _dflt_registers, _dflt_fail_on, _dflt_show_info = defaults

    def __init__(self, select=_dflt_select, ignore=_dflt_ignore, severity=_dflt_severity, include=_dflt_include, extend_exclude=_dflt_extend_exclude, arch=_dflt_arch, block=_dflt_block, grid=_dflt_grid, bindings=_dflt_bindings, defines=_dflt_defines, types=_dflt_types, registers=_dflt_registers, fail_on=_dflt_fail_on, show_info=_dflt_show_info):
        _object_setattr(self, '__dict__', {'select': select, 'ignore': ignore, 'severity': severity, 'include': include, 'extend_exclude': extend_exclude, 'arch': arch, 'block': block, 'grid': grid, 'bindings': bindings, 'defines': defines, 'types': types, 'registers': registers, 'fail_on': fail_on, 'show_info': show_info})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(select={self.select!r}, ignore={self.ignore!r}, severity={self.severity!r}, include={self.include!r}, extend_exclude={self.extend_exclude!r}, arch={self.arch!r}, block={self.block!r}, grid={self.grid!r}, bindings={self.bindings!r}, defines={self.defines!r}, types={self.types!r}, registers={self.registers!r}, fail_on={self.fail_on!r}, show_info={self.show_info!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.select, self.ignore, self.severity, self.include, self.extend_exclude, self.arch, self.block, self.grid, self.bindings, self.defines, self.types, self.registers, self.fail_on, self.show_info,) == (other.select, other.ignore, other.severity, other.include, other.extend_exclude, other.arch, other.block, other.grid, other.bindings, other.defines, other.types, other.registers, other.fail_on, other.show_info,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('select', 'ignore', 'severity', 'include', 'extend_exclude', 'arch', 'block', 'grid', 'bindings', 'defines', 'types', 'registers', 'fail_on', 'show_info',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('select', 'ignore', 'severity', 'include', 'extend_exclude', 'arch', 'block', 'grid', 'bindings', 'defines', 'types', 'registers', 'fail_on', 'show_info',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.select, self.ignore, self.severity, self.include, self.extend_exclude, self.arch, self.block, self.grid, self.bindings, self.defines, self.types, self.registers, self.fail_on, self.show_info,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_lint_config_Settings(cls, defaults):
    _dflt_root, _dflt_source, _dflt_select, _dflt_ignore, _dflt_severity, _dflt_per_file_ignores, _dflt_include, _dflt_exclude, _dflt_arch, _dflt_block, _dflt_grid, _dflt_bindings, _dflt_defines, _dflt_types, _dflt_registers, _dflt_fail_on, _dflt_show_info = defaults

    def __init__(self, root=_FACTORY, source=_dflt_source, select=_dflt_select, ignore=_dflt_ignore, severity=_dflt_severity, per_file_ignores=_dflt_per_file_ignores, include=_dflt_include, exclude=_dflt_exclude, arch=_dflt_arch, block=_dflt_block, grid=_dflt_grid, bindings=_dflt_bindings, defines=_dflt_defines, types=_dflt_types, registers=_dflt_registers, fail_on=_dflt_fail_on, show_info=_dflt_show_info):
        _object_setattr(self, '__dict__', {'root': _dflt_root() if root is _FACTORY else root, 'source': source, 'select': select, 'ignore': ignore, 'severity': severity, 'per_file_ignores': per_file_ignores, 'include': include, 'exclude': exclude, 'arch': arch, 'block': block, 'grid': grid, 'bindings': bindings, 'defines': defines, 'types': types, 'registers': registers, 'fail_on': fail_on, 'show_info': show_info})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(root={self.root!r}, source={self.source!r}, select={self.select!r}, ignore={self.ignore!r}, severity={self.severity!r}, per_file_ignores={self.per_file_ignores!r}, include={self.include!r}, exclude={self.exclude!r}, arch={self.arch!r}, block={self.block!r}, grid={self.grid!r}, bindings={self.bindings!r}, defines={self.defines!r}, types={self.types!r}, registers={self.registers!r}, fail_on={self.fail_on!r}, show_info={self.show_info!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.root, self.source, self.select, self.ignore, self.severity, self.per_file_ignores, self.include, self.exclude, self.arch, self.block, self.grid, self.bindings, self.defines, self.types, self.registers, self.fail_on, self.show_info,) == (other.root, other.source, other.select, other.ignore, other.severity, other.per_file_ignores, other.include, other.exclude, other.arch, other.block, other.grid, other.bindings, other.defines, other.types, other.registers, other.fail_on, other.show_info,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('root', 'source', 'select', 'ignore', 'severity', 'per_file_ignores', 'include', 'exclude', 'arch', 'block', 'grid', 'bindings', 'defines', 'types', 'registers', 'fail_on', 'show_info',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('root', 'source', 'select', 'ignore', 'severity', 'per_file_ignores', 'include', 'exclude', 'arch', 'block', 'grid', 'bindings', 'defines', 'types', 'registers', 'fail_on', 'show_info',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.root, self.source, self.select, self.ignore, self.severity, self.per_file_ignores, self.include, self.exclude, self.arch, self.block, self.grid, self.bindings, self.defines, self.types, self.registers, self.fail_on, self.show_info,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_lint_findings_FileOutcome(cls, defaults):
    _dflt_findings, _dflt_lines, _dflt_suppressed, _dflt_error, _dflt_hidden_info = defaults

    def __init__(self, path, findings=_dflt_findings, lines=_dflt_lines, suppressed=_dflt_suppressed, error=_dflt_error, hidden_info=_dflt_hidden_info):
        _object_setattr(self, '__dict__', {'path': path, 'findings': findings, 'lines': lines, 'suppressed': suppressed, 'error': error, 'hidden_info': hidden_info})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(path={self.path!r}, findings={self.findings!r}, lines={self.lines!r}, suppressed={self.suppressed!r}, error={self.error!r}, hidden_info={self.hidden_info!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.path, self.findings, self.lines, self.suppressed, self.error, self.hidden_info,) == (other.path, other.findings, other.lines, other.suppressed, other.error, other.hidden_info,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('path', 'findings', 'lines', 'suppressed', 'error', 'hidden_info',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('path', 'findings', 'lines', 'suppressed', 'error', 'hidden_info',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.path, self.findings, self.lines, self.suppressed, self.error, self.hidden_info,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_lint_findings_Finding(cls, defaults):

    def __init__(self, diagnostic, fingerprint, failing):
        _object_setattr(self, '__dict__', {'diagnostic': diagnostic, 'fingerprint': fingerprint, 'failing': failing})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(diagnostic={self.diagnostic!r}, fingerprint={self.fingerprint!r}, failing={self.failing!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.diagnostic, self.fingerprint, self.failing,) == (other.diagnostic, other.fingerprint, other.failing,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('diagnostic', 'fingerprint', 'failing',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('diagnostic', 'fingerprint', 'failing',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.diagnostic, self.fingerprint, self.failing,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_lint_findings_LintReport(cls, defaults):
    _dflt_files, _dflt_skipped = defaults

    def __init__(self, files=_FACTORY, skipped=_FACTORY):
        self.files = _dflt_files() if files is _FACTORY else files
        self.skipped = _dflt_skipped() if skipped is _FACTORY else skipped

    def __repr__(self):
        return self.__class__.__qualname__ + f"(files={self.files!r}, skipped={self.skipped!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.files, self.skipped,) == (other.files, other.skipped,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_lint_suppressions_Comment(cls, defaults):

    def __init__(self, line, column, text, own_line, start, end):
        _object_setattr(self, '__dict__', {'line': line, 'column': column, 'text': text, 'own_line': own_line, 'start': start, 'end': end})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r}, text={self.text!r}, own_line={self.own_line!r}, start={self.start!r}, end={self.end!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column, self.text, self.own_line, self.start, self.end,) == (other.line, other.column, other.text, other.own_line, other.start, other.end,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('line', 'column', 'text', 'own_line', 'start', 'end',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('line', 'column', 'text', 'own_line', 'start', 'end',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.line, self.column, self.text, self.own_line, self.start, self.end,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_lint_suppressions_Suppression(cls, defaults):
    _dflt_used, = defaults

    def __init__(self, kind, line, column, codes, first, last, used=_FACTORY):
        self.kind = kind
        self.line = line
        self.column = column
        self.codes = codes
        self.first = first
        self.last = last
        self.used = _dflt_used() if used is _FACTORY else used

    def __repr__(self):
        return self.__class__.__qualname__ + f"(kind={self.kind!r}, line={self.line!r}, column={self.column!r}, codes={self.codes!r}, first={self.first!r}, last={self.last!r}, used={self.used!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.kind, self.line, self.column, self.codes, self.first, self.last, self.used,) == (other.kind, other.line, other.column, other.codes, other.first, other.last, other.used,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Access(cls, defaults):
    _dflt_context, _dflt_stride_hint_bytes, _dflt_in_function, _dflt_hoisted_loops, _dflt_cached, _dflt_stored, _dflt_seq = defaults

    def __init__(self, array, space, op, address, elem_bytes, line, column, text, context=_FACTORY, stride_hint_bytes=_dflt_stride_hint_bytes, in_function=_dflt_in_function, hoisted_loops=_dflt_hoisted_loops, cached=_dflt_cached, stored=_dflt_stored, seq=_dflt_seq):
        self.array = array
        self.space = space
        self.op = op
        self.address = address
        self.elem_bytes = elem_bytes
        self.line = line
        self.column = column
        self.text = text
        self.context = _dflt_context() if context is _FACTORY else context
        self.stride_hint_bytes = stride_hint_bytes
        self.in_function = in_function
        self.hoisted_loops = hoisted_loops
        self.cached = cached
        self.stored = stored
        self.seq = seq

    def __repr__(self):
        return self.__class__.__qualname__ + f"(array={self.array!r}, space={self.space!r}, op={self.op!r}, address={self.address!r}, elem_bytes={self.elem_bytes!r}, line={self.line!r}, column={self.column!r}, text={self.text!r}, context={self.context!r}, stride_hint_bytes={self.stride_hint_bytes!r}, in_function={self.in_function!r}, hoisted_loops={self.hoisted_loops!r}, cached={self.cached!r}, stored={self.stored!r}, seq={self.seq!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.array, self.space, self.op, self.address, self.elem_bytes, self.line, self.column, self.text, self.context, self.stride_hint_bytes, self.in_function, self.hoisted_loops, self.cached, self.stored, self.seq,) == (other.array, other.space, other.op, other.address, other.elem_bytes, other.line, other.column, other.text, other.context, other.stride_hint_bytes, other.in_function, other.hoisted_loops, other.cached, other.stored, other.seq,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Arith(cls, defaults):
    _dflt_context, _dflt_seq = defaults

    def __init__(self, op, precision, flops, line, context=_FACTORY, seq=_dflt_seq):
        self.op = op
        self.precision = precision
        self.flops = flops
        self.line = line
        self.context = _dflt_context() if context is _FACTORY else context
        self.seq = seq

    def __repr__(self):
        return self.__class__.__qualname__ + f"(op={self.op!r}, precision={self.precision!r}, flops={self.flops!r}, line={self.line!r}, context={self.context!r}, seq={self.seq!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.op, self.precision, self.flops, self.line, self.context, self.seq,) == (other.op, other.precision, other.flops, other.line, other.context, other.seq,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Barrier(cls, defaults):
    _dflt_context, _dflt_mask, _dflt_seq = defaults

    def __init__(self, kind, line, column, context=_FACTORY, mask=_dflt_mask, seq=_dflt_seq):
        self.kind = kind
        self.line = line
        self.column = column
        self.context = _dflt_context() if context is _FACTORY else context
        self.mask = mask
        self.seq = seq

    def __repr__(self):
        return self.__class__.__qualname__ + f"(kind={self.kind!r}, line={self.line!r}, column={self.column!r}, context={self.context!r}, mask={self.mask!r}, seq={self.seq!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.kind, self.line, self.column, self.context, self.mask, self.seq,) == (other.kind, other.line, other.column, other.context, other.mask, other.seq,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Branch(cls, defaults):
    _dflt_context, _dflt_kind, _dflt_has_else, _dflt_seq = defaults

    def __init__(self, condition, line, column, context=_FACTORY, kind=_dflt_kind, has_else=_dflt_has_else, seq=_dflt_seq):
        self.condition = condition
        self.line = line
        self.column = column
        self.context = _dflt_context() if context is _FACTORY else context
        self.kind = kind
        self.has_else = has_else
        self.seq = seq

    def __repr__(self):
        return self.__class__.__qualname__ + f"(condition={self.condition!r}, line={self.line!r}, column={self.column!r}, context={self.context!r}, kind={self.kind!r}, has_else={self.has_else!r}, seq={self.seq!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.condition, self.line, self.column, self.context, self.kind, self.has_else, self.seq,) == (other.condition, other.line, other.column, other.context, other.kind, other.has_else, other.seq,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Call(cls, defaults):
    _dflt_args, _dflt_context, _dflt_seq = defaults

    def __init__(self, name, line, column, args=_dflt_args, context=_FACTORY, seq=_dflt_seq):
        self.name = name
        self.line = line
        self.column = column
        self.args = args
        self.context = _dflt_context() if context is _FACTORY else context
        self.seq = seq

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, line={self.line!r}, column={self.column!r}, args={self.args!r}, context={self.context!r}, seq={self.seq!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.line, self.column, self.args, self.context, self.seq,) == (other.name, other.line, other.column, other.args, other.context, other.seq,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Condition(cls, defaults):
    _dflt_negated, _dflt_exclusive = defaults

    def __init__(self, expr, line, negated=_dflt_negated, exclusive=_dflt_exclusive):
        self.expr = expr
        self.line = line
        self.negated = negated
        self.exclusive = exclusive

    def __repr__(self):
        return self.__class__.__qualname__ + f"(expr={self.expr!r}, line={self.line!r}, negated={self.negated!r}, exclusive={self.exclusive!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.expr, self.line, self.negated, self.exclusive,) == (other.expr, other.line, other.negated, other.exclusive,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Context(cls, defaults):
    _dflt_loops, _dflt_conditions = defaults

    def __init__(self, loops=_dflt_loops, conditions=_dflt_conditions):
        self.loops = loops
        self.conditions = conditions

    def __repr__(self):
        return self.__class__.__qualname__ + f"(loops={self.loops!r}, conditions={self.conditions!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.loops, self.conditions,) == (other.loops, other.conditions,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Diagnostic(cls, defaults):
    _dflt_kernel, _dflt_end_line, _dflt_related = defaults

    def __init__(self, rule, severity, path, line, column, message, kernel=_dflt_kernel, end_line=_dflt_end_line, related=_dflt_related):
        _object_setattr(self, '__dict__', {'rule': rule, 'severity': severity, 'path': path, 'line': line, 'column': column, 'message': message, 'kernel': kernel, 'end_line': end_line, 'related': related})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(rule={self.rule!r}, severity={self.severity!r}, path={self.path!r}, line={self.line!r}, column={self.column!r}, message={self.message!r}, kernel={self.kernel!r}, end_line={self.end_line!r}, related={self.related!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.rule, self.severity, self.path, self.line, self.column, self.message, self.kernel, self.end_line, self.related,) == (other.rule, other.severity, other.path, other.line, other.column, other.message, other.kernel, other.end_line, other.related,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('rule', 'severity', 'path', 'line', 'column', 'message', 'kernel', 'end_line', 'related',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('rule', 'severity', 'path', 'line', 'column', 'message', 'kernel', 'end_line', 'related',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.rule, self.severity, self.path, self.line, self.column, self.message, self.kernel, self.end_line, self.related,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_model_FileModel(cls, defaults):
    _dflt_kernels, _dflt_launches, _dflt_errors, _dflt_device_functions, _dflt_text, _dflt_notes = defaults

    def __init__(self, path, kernels=_FACTORY, launches=_FACTORY, errors=_FACTORY, device_functions=_FACTORY, text=_dflt_text, notes=_FACTORY):
        self.path = path
        self.kernels = _dflt_kernels() if kernels is _FACTORY else kernels
        self.launches = _dflt_launches() if launches is _FACTORY else launches
        self.errors = _dflt_errors() if errors is _FACTORY else errors
        self.device_functions = _dflt_device_functions() if device_functions is _FACTORY else device_functions
        self.text = text
        self.notes = _dflt_notes() if notes is _FACTORY else notes

    def __repr__(self):
        return self.__class__.__qualname__ + f"(path={self.path!r}, kernels={self.kernels!r}, launches={self.launches!r}, errors={self.errors!r}, device_functions={self.device_functions!r}, text={self.text!r}, notes={self.notes!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.path, self.kernels, self.launches, self.errors, self.device_functions, self.text, self.notes,) == (other.path, other.kernels, other.launches, other.errors, other.device_functions, other.text, other.notes,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Kernel(cls, defaults):
    _dflt_params, _dflt_template_params, _dflt_template_instantiations, _dflt_template_bindings, _dflt_template_types, _dflt_launch_bounds, _dflt_extern_c, _dflt_accesses, _dflt_loops, _dflt_branches, _dflt_barriers, _dflt_calls, _dflt_arith, _dflt_shared_arrays, _dflt_local_arrays, _dflt_dynamic_local_accesses, _dflt_launches, _dflt_early_returns, _dflt_uses_shuffle, _dflt_uses_cooperative_groups, _dflt_uses_inline_asm, _dflt_shared_memory_opt_in, _dflt_end_line, _dflt_notes = defaults

    def __init__(self, name, line, column, params=_FACTORY, template_params=_FACTORY, template_instantiations=_FACTORY, template_bindings=_FACTORY, template_types=_FACTORY, launch_bounds=_dflt_launch_bounds, extern_c=_dflt_extern_c, accesses=_FACTORY, loops=_FACTORY, branches=_FACTORY, barriers=_FACTORY, calls=_FACTORY, arith=_FACTORY, shared_arrays=_FACTORY, local_arrays=_FACTORY, dynamic_local_accesses=_FACTORY, launches=_FACTORY, early_returns=_FACTORY, uses_shuffle=_dflt_uses_shuffle, uses_cooperative_groups=_dflt_uses_cooperative_groups, uses_inline_asm=_dflt_uses_inline_asm, shared_memory_opt_in=_dflt_shared_memory_opt_in, end_line=_dflt_end_line, notes=_FACTORY):
        self.name = name
        self.line = line
        self.column = column
        self.params = _dflt_params() if params is _FACTORY else params
        self.template_params = _dflt_template_params() if template_params is _FACTORY else template_params
        self.template_instantiations = _dflt_template_instantiations() if template_instantiations is _FACTORY else template_instantiations
        self.template_bindings = _dflt_template_bindings() if template_bindings is _FACTORY else template_bindings
        self.template_types = _dflt_template_types() if template_types is _FACTORY else template_types
        self.launch_bounds = launch_bounds
        self.extern_c = extern_c
        self.accesses = _dflt_accesses() if accesses is _FACTORY else accesses
        self.loops = _dflt_loops() if loops is _FACTORY else loops
        self.branches = _dflt_branches() if branches is _FACTORY else branches
        self.barriers = _dflt_barriers() if barriers is _FACTORY else barriers
        self.calls = _dflt_calls() if calls is _FACTORY else calls
        self.arith = _dflt_arith() if arith is _FACTORY else arith
        self.shared_arrays = _dflt_shared_arrays() if shared_arrays is _FACTORY else shared_arrays
        self.local_arrays = _dflt_local_arrays() if local_arrays is _FACTORY else local_arrays
        self.dynamic_local_accesses = _dflt_dynamic_local_accesses() if dynamic_local_accesses is _FACTORY else dynamic_local_accesses
        self.launches = _dflt_launches() if launches is _FACTORY else launches
        self.early_returns = _dflt_early_returns() if early_returns is _FACTORY else early_returns
        self.uses_shuffle = uses_shuffle
        self.uses_cooperative_groups = uses_cooperative_groups
        self.uses_inline_asm = uses_inline_asm
        self.shared_memory_opt_in = shared_memory_opt_in
        self.end_line = end_line
        self.notes = _dflt_notes() if notes is _FACTORY else notes

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, line={self.line!r}, column={self.column!r}, params={self.params!r}, template_params={self.template_params!r}, template_instantiations={self.template_instantiations!r}, template_bindings={self.template_bindings!r}, template_types={self.template_types!r}, launch_bounds={self.launch_bounds!r}, extern_c={self.extern_c!r}, accesses={self.accesses!r}, loops={self.loops!r}, branches={self.branches!r}, barriers={self.barriers!r}, calls={self.calls!r}, arith={self.arith!r}, shared_arrays={self.shared_arrays!r}, local_arrays={self.local_arrays!r}, dynamic_local_accesses={self.dynamic_local_accesses!r}, launches={self.launches!r}, early_returns={self.early_returns!r}, uses_shuffle={self.uses_shuffle!r}, uses_cooperative_groups={self.uses_cooperative_groups!r}, uses_inline_asm={self.uses_inline_asm!r}, shared_memory_opt_in={self.shared_memory_opt_in!r}, end_line={self.end_line!r}, notes={self.notes!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.line, self.column, self.params, self.template_params, self.template_instantiations, self.template_bindings, self.template_types, self.launch_bounds, self.extern_c, self.accesses, self.loops, self.branches, self.barriers, self.calls, self.arith, self.shared_arrays, self.local_arrays, self.dynamic_local_accesses, self.launches, self.early_returns, self.uses_shuffle, self.uses_cooperative_groups, self.uses_inline_asm, self.shared_memory_opt_in, self.end_line, self.notes,) == (other.name, other.line, other.column, other.params, other.template_params, other.template_instantiations, other.template_bindings, other.template_types, other.launch_bounds, other.extern_c, other.accesses, other.loops, other.branches, other.barriers, other.calls, other.arith, other.shared_arrays, other.local_arrays, other.dynamic_local_accesses, other.launches, other.early_returns, other.uses_shuffle, other.uses_cooperative_groups, other.uses_inline_asm, other.shared_memory_opt_in, other.end_line, other.notes,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_LaunchSite(cls, defaults):
    _dflt_template_args, _dflt_grid_text, _dflt_block_text, _dflt_host_bindings, _dflt_argument_types, _dflt_grid_exprs, _dflt_block_exprs = defaults

    def __init__(self, kernel, line, column, grid, block, dynamic_smem, template_args=_dflt_template_args, grid_text=_dflt_grid_text, block_text=_dflt_block_text, host_bindings=_FACTORY, argument_types=_FACTORY, grid_exprs=_dflt_grid_exprs, block_exprs=_dflt_block_exprs):
        self.kernel = kernel
        self.line = line
        self.column = column
        self.grid = grid
        self.block = block
        self.dynamic_smem = dynamic_smem
        self.template_args = template_args
        self.grid_text = grid_text
        self.block_text = block_text
        self.host_bindings = _dflt_host_bindings() if host_bindings is _FACTORY else host_bindings
        self.argument_types = _dflt_argument_types() if argument_types is _FACTORY else argument_types
        self.grid_exprs = grid_exprs
        self.block_exprs = block_exprs

    def __repr__(self):
        return self.__class__.__qualname__ + f"(kernel={self.kernel!r}, line={self.line!r}, column={self.column!r}, grid={self.grid!r}, block={self.block!r}, dynamic_smem={self.dynamic_smem!r}, template_args={self.template_args!r}, grid_text={self.grid_text!r}, block_text={self.block_text!r}, host_bindings={self.host_bindings!r}, argument_types={self.argument_types!r}, grid_exprs={self.grid_exprs!r}, block_exprs={self.block_exprs!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.kernel, self.line, self.column, self.grid, self.block, self.dynamic_smem, self.template_args, self.grid_text, self.block_text, self.host_bindings, self.argument_types, self.grid_exprs, self.block_exprs,) == (other.kernel, other.line, other.column, other.grid, other.block, other.dynamic_smem, other.template_args, other.grid_text, other.block_text, other.host_bindings, other.argument_types, other.grid_exprs, other.block_exprs,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Loop(cls, defaults):
    _dflt_var, _dflt_start, _dflt_bound, _dflt_step, _dflt_compare, _dflt_trip_count, _dflt_unrolled, _dflt_depth, _dflt_thread_dependent, _dflt_condition_depth, _dflt_assigned, _dflt_step_op, _dflt_seq = defaults

    def __init__(self, kind, line, var=_dflt_var, start=_dflt_start, bound=_dflt_bound, step=_dflt_step, compare=_dflt_compare, trip_count=_dflt_trip_count, unrolled=_dflt_unrolled, depth=_dflt_depth, thread_dependent=_dflt_thread_dependent, condition_depth=_dflt_condition_depth, assigned=_dflt_assigned, step_op=_dflt_step_op, seq=_dflt_seq):
        self.kind = kind
        self.line = line
        self.var = var
        self.start = start
        self.bound = bound
        self.step = step
        self.compare = compare
        self.trip_count = trip_count
        self.unrolled = unrolled
        self.depth = depth
        self.thread_dependent = thread_dependent
        self.condition_depth = condition_depth
        self.assigned = assigned
        self.step_op = step_op
        self.seq = seq

    def __repr__(self):
        return self.__class__.__qualname__ + f"(kind={self.kind!r}, line={self.line!r}, var={self.var!r}, start={self.start!r}, bound={self.bound!r}, step={self.step!r}, compare={self.compare!r}, trip_count={self.trip_count!r}, unrolled={self.unrolled!r}, depth={self.depth!r}, thread_dependent={self.thread_dependent!r}, condition_depth={self.condition_depth!r}, assigned={self.assigned!r}, step_op={self.step_op!r}, seq={self.seq!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.kind, self.line, self.var, self.start, self.bound, self.step, self.compare, self.trip_count, self.unrolled, self.depth, self.thread_dependent, self.condition_depth, self.assigned, self.step_op, self.seq,) == (other.kind, other.line, other.var, other.start, other.bound, other.step, other.compare, other.trip_count, other.unrolled, other.depth, other.thread_dependent, other.condition_depth, other.assigned, other.step_op, other.seq,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Param(cls, defaults):
    _dflt_is_const, _dflt_is_restrict, _dflt_line = defaults

    def __init__(self, name, type_name, is_pointer, elem_bytes, is_const=_dflt_is_const, is_restrict=_dflt_is_restrict, line=_dflt_line):
        self.name = name
        self.type_name = type_name
        self.is_pointer = is_pointer
        self.elem_bytes = elem_bytes
        self.is_const = is_const
        self.is_restrict = is_restrict
        self.line = line

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, type_name={self.type_name!r}, is_pointer={self.is_pointer!r}, elem_bytes={self.elem_bytes!r}, is_const={self.is_const!r}, is_restrict={self.is_restrict!r}, line={self.line!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.type_name, self.is_pointer, self.elem_bytes, self.is_const, self.is_restrict, self.line,) == (other.name, other.type_name, other.is_pointer, other.elem_bytes, other.is_const, other.is_restrict, other.line,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_Position(cls, defaults):

    def __init__(self, line, column):
        _object_setattr(self, '__dict__', {'line': line, 'column': column})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column,) == (other.line, other.column,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('line', 'column',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('line', 'column',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.line, self.column,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_model_SharedArray(cls, defaults):

    def __init__(self, name, elem_bytes, dims, dynamic, line):
        self.name = name
        self.elem_bytes = elem_bytes
        self.dims = dims
        self.dynamic = dynamic
        self.line = line

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, elem_bytes={self.elem_bytes!r}, dims={self.dims!r}, dynamic={self.dynamic!r}, line={self.line!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.elem_bytes, self.dims, self.dynamic, self.line,) == (other.name, other.elem_bytes, other.dims, other.dynamic, other.line,)
        return NotImplemented

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__}


def _kernelscope_model_SourceError(cls, defaults):

    def __init__(self, line, column, message):
        _object_setattr(self, '__dict__', {'line': line, 'column': column, 'message': message})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(line={self.line!r}, column={self.column!r}, message={self.message!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.line, self.column, self.message,) == (other.line, other.column, other.message,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('line', 'column', 'message',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('line', 'column', 'message',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.line, self.column, self.message,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_profiles_db_ArchProfile(cls, defaults):

    def __init__(self, cc, family, warp_size, max_threads_per_block, max_threads_per_sm, max_warps_per_sm, max_blocks_per_sm, registers_per_sm, max_registers_per_block, max_registers_per_thread, register_allocation_unit, sub_partitions, shared_memory_per_sm, max_shared_memory_per_block, max_shared_memory_per_block_optin, reserved_shared_memory_per_block, shared_memory_allocation_unit, carveouts_kb, max_barriers_per_block, barriers_per_sm_per_block_slot):
        _object_setattr(self, '__dict__', {'cc': cc, 'family': family, 'warp_size': warp_size, 'max_threads_per_block': max_threads_per_block, 'max_threads_per_sm': max_threads_per_sm, 'max_warps_per_sm': max_warps_per_sm, 'max_blocks_per_sm': max_blocks_per_sm, 'registers_per_sm': registers_per_sm, 'max_registers_per_block': max_registers_per_block, 'max_registers_per_thread': max_registers_per_thread, 'register_allocation_unit': register_allocation_unit, 'sub_partitions': sub_partitions, 'shared_memory_per_sm': shared_memory_per_sm, 'max_shared_memory_per_block': max_shared_memory_per_block, 'max_shared_memory_per_block_optin': max_shared_memory_per_block_optin, 'reserved_shared_memory_per_block': reserved_shared_memory_per_block, 'shared_memory_allocation_unit': shared_memory_allocation_unit, 'carveouts_kb': carveouts_kb, 'max_barriers_per_block': max_barriers_per_block, 'barriers_per_sm_per_block_slot': barriers_per_sm_per_block_slot})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(cc={self.cc!r}, family={self.family!r}, warp_size={self.warp_size!r}, max_threads_per_block={self.max_threads_per_block!r}, max_threads_per_sm={self.max_threads_per_sm!r}, max_warps_per_sm={self.max_warps_per_sm!r}, max_blocks_per_sm={self.max_blocks_per_sm!r}, registers_per_sm={self.registers_per_sm!r}, max_registers_per_block={self.max_registers_per_block!r}, max_registers_per_thread={self.max_registers_per_thread!r}, register_allocation_unit={self.register_allocation_unit!r}, sub_partitions={self.sub_partitions!r}, shared_memory_per_sm={self.shared_memory_per_sm!r}, max_shared_memory_per_block={self.max_shared_memory_per_block!r}, max_shared_memory_per_block_optin={self.max_shared_memory_per_block_optin!r}, reserved_shared_memory_per_block={self.reserved_shared_memory_per_block!r}, shared_memory_allocation_unit={self.shared_memory_allocation_unit!r}, carveouts_kb={self.carveouts_kb!r}, max_barriers_per_block={self.max_barriers_per_block!r}, barriers_per_sm_per_block_slot={self.barriers_per_sm_per_block_slot!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.cc, self.family, self.warp_size, self.max_threads_per_block, self.max_threads_per_sm, self.max_warps_per_sm, self.max_blocks_per_sm, self.registers_per_sm, self.max_registers_per_block, self.max_registers_per_thread, self.register_allocation_unit, self.sub_partitions, self.shared_memory_per_sm, self.max_shared_memory_per_block, self.max_shared_memory_per_block_optin, self.reserved_shared_memory_per_block, self.shared_memory_allocation_unit, self.carveouts_kb, self.max_barriers_per_block, self.barriers_per_sm_per_block_slot,) == (other.cc, other.family, other.warp_size, other.max_threads_per_block, other.max_threads_per_sm, other.max_warps_per_sm, other.max_blocks_per_sm, other.registers_per_sm, other.max_registers_per_block, other.max_registers_per_thread, other.register_allocation_unit, other.sub_partitions, other.shared_memory_per_sm, other.max_shared_memory_per_block, other.max_shared_memory_per_block_optin, other.reserved_shared_memory_per_block, other.shared_memory_allocation_unit, other.carveouts_kb, other.max_barriers_per_block, other.barriers_per_sm_per_block_slot,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('cc', 'family', 'warp_size', 'max_threads_per_block', 'max_threads_per_sm', 'max_warps_per_sm', 'max_blocks_per_sm', 'registers_per_sm', 'max_registers_per_block', 'max_registers_per_thread', 'register_allocation_unit', 'sub_partitions', 'shared_memory_per_sm', 'max_shared_memory_per_block', 'max_shared_memory_per_block_optin', 'reserved_shared_memory_per_block', 'shared_memory_allocation_unit', 'carveouts_kb', 'max_barriers_per_block', 'barriers_per_sm_per_block_slot',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('cc', 'family', 'warp_size', 'max_threads_per_block', 'max_threads_per_sm', 'max_warps_per_sm', 'max_blocks_per_sm', 'registers_per_sm', 'max_registers_per_block', 'max_registers_per_thread', 'register_allocation_unit', 'sub_partitions', 'shared_memory_per_sm', 'max_shared_memory_per_block', 'max_shared_memory_per_block_optin', 'reserved_shared_memory_per_block', 'shared_memory_allocation_unit', 'carveouts_kb', 'max_barriers_per_block', 'barriers_per_sm_per_block_slot',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.cc, self.family, self.warp_size, self.max_threads_per_block, self.max_threads_per_sm, self.max_warps_per_sm, self.max_blocks_per_sm, self.registers_per_sm, self.max_registers_per_block, self.max_registers_per_thread, self.register_allocation_unit, self.sub_partitions, self.shared_memory_per_sm, self.max_shared_memory_per_block, self.max_shared_memory_per_block_optin, self.reserved_shared_memory_per_block, self.shared_memory_allocation_unit, self.carveouts_kb, self.max_barriers_per_block, self.barriers_per_sm_per_block_slot,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_profiles_db_GpuProfile(cls, defaults):

    def __init__(self, name, aliases, cc, sm_count, fp32_lanes_per_sm, boost_clock_mhz, memory_gb, memory_type, memory_bandwidth_gbs, l2_cache_mb, peak_tflops, source):
        _object_setattr(self, '__dict__', {'name': name, 'aliases': aliases, 'cc': cc, 'sm_count': sm_count, 'fp32_lanes_per_sm': fp32_lanes_per_sm, 'boost_clock_mhz': boost_clock_mhz, 'memory_gb': memory_gb, 'memory_type': memory_type, 'memory_bandwidth_gbs': memory_bandwidth_gbs, 'l2_cache_mb': l2_cache_mb, 'peak_tflops': peak_tflops, 'source': source})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, aliases={self.aliases!r}, cc={self.cc!r}, sm_count={self.sm_count!r}, fp32_lanes_per_sm={self.fp32_lanes_per_sm!r}, boost_clock_mhz={self.boost_clock_mhz!r}, memory_gb={self.memory_gb!r}, memory_type={self.memory_type!r}, memory_bandwidth_gbs={self.memory_bandwidth_gbs!r}, l2_cache_mb={self.l2_cache_mb!r}, peak_tflops={self.peak_tflops!r}, source={self.source!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.aliases, self.cc, self.sm_count, self.fp32_lanes_per_sm, self.boost_clock_mhz, self.memory_gb, self.memory_type, self.memory_bandwidth_gbs, self.l2_cache_mb, self.peak_tflops, self.source,) == (other.name, other.aliases, other.cc, other.sm_count, other.fp32_lanes_per_sm, other.boost_clock_mhz, other.memory_gb, other.memory_type, other.memory_bandwidth_gbs, other.l2_cache_mb, other.peak_tflops, other.source,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'aliases', 'cc', 'sm_count', 'fp32_lanes_per_sm', 'boost_clock_mhz', 'memory_gb', 'memory_type', 'memory_bandwidth_gbs', 'l2_cache_mb', 'peak_tflops', 'source',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'aliases', 'cc', 'sm_count', 'fp32_lanes_per_sm', 'boost_clock_mhz', 'memory_gb', 'memory_type', 'memory_bandwidth_gbs', 'l2_cache_mb', 'peak_tflops', 'source',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.aliases, self.cc, self.sm_count, self.fp32_lanes_per_sm, self.boost_clock_mhz, self.memory_gb, self.memory_type, self.memory_bandwidth_gbs, self.l2_cache_mb, self.peak_tflops, self.source,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_resources_ResourceUsage(cls, defaults):
    _dflt_spill_stores, _dflt_spill_loads, _dflt_stack_bytes, _dflt_static_shared_bytes, _dflt_constant_bytes, _dflt_barriers, _dflt_source, _dflt_symbol, _dflt_instantiation, _dflt_instantiations = defaults

    def __init__(self, registers, spill_stores=_dflt_spill_stores, spill_loads=_dflt_spill_loads, stack_bytes=_dflt_stack_bytes, static_shared_bytes=_dflt_static_shared_bytes, constant_bytes=_dflt_constant_bytes, barriers=_dflt_barriers, source=_dflt_source, symbol=_dflt_symbol, instantiation=_dflt_instantiation, instantiations=_dflt_instantiations):
        _object_setattr(self, '__dict__', {'registers': registers, 'spill_stores': spill_stores, 'spill_loads': spill_loads, 'stack_bytes': stack_bytes, 'static_shared_bytes': static_shared_bytes, 'constant_bytes': constant_bytes, 'barriers': barriers, 'source': source, 'symbol': symbol, 'instantiation': instantiation, 'instantiations': instantiations})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(registers={self.registers!r}, spill_stores={self.spill_stores!r}, spill_loads={self.spill_loads!r}, stack_bytes={self.stack_bytes!r}, static_shared_bytes={self.static_shared_bytes!r}, constant_bytes={self.constant_bytes!r}, barriers={self.barriers!r}, source={self.source!r}, symbol={self.symbol!r}, instantiation={self.instantiation!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.registers, self.spill_stores, self.spill_loads, self.stack_bytes, self.static_shared_bytes, self.constant_bytes, self.barriers, self.source, self.symbol, self.instantiation, self.instantiations,) == (other.registers, other.spill_stores, other.spill_loads, other.stack_bytes, other.static_shared_bytes, other.constant_bytes, other.barriers, other.source, other.symbol, other.instantiation, other.instantiations,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('registers', 'spill_stores', 'spill_loads', 'stack_bytes', 'static_shared_bytes', 'constant_bytes', 'barriers', 'source', 'symbol', 'instantiation', 'instantiations',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('registers', 'spill_stores', 'spill_loads', 'stack_bytes', 'static_shared_bytes', 'constant_bytes', 'barriers', 'source', 'symbol', 'instantiation', 'instantiations',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.registers, self.spill_stores, self.spill_loads, self.stack_bytes, self.static_shared_bytes, self.constant_bytes, self.barriers, self.source, self.symbol, self.instantiation, self.instantiations,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_plan_ConcreteLaunch(cls, defaults):

    def __init__(self, kernel, grid, block, dynamic_smem, args):
        _object_setattr(self, '__dict__', {'kernel': kernel, 'grid': grid, 'block': block, 'dynamic_smem': dynamic_smem, 'args': args})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(kernel={self.kernel!r}, grid={self.grid!r}, block={self.block!r}, dynamic_smem={self.dynamic_smem!r}, args={self.args!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.kernel, self.grid, self.block, self.dynamic_smem, self.args,) == (other.kernel, other.grid, other.block, other.dynamic_smem, other.args,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('kernel', 'grid', 'block', 'dynamic_smem', 'args',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('kernel', 'grid', 'block', 'dynamic_smem', 'args',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.kernel, self.grid, self.block, self.dynamic_smem, self.args,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_plan_ConcretePlan(cls, defaults):

    def __init__(self, launches, scratch, scalars):
        _object_setattr(self, '__dict__', {'launches': launches, 'scratch': scratch, 'scalars': scalars})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(launches={self.launches!r}, scratch={self.scratch!r}, scalars={self.scalars!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.launches, self.scratch, self.scalars,) == (other.launches, other.scratch, other.scalars,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('launches', 'scratch', 'scalars',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('launches', 'scratch', 'scalars',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.launches, self.scratch, self.scalars,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_plan_LaunchPlan(cls, defaults):
    _dflt_scratch, _dflt_scalars, _dflt_origin = defaults

    def __init__(self, launches, scratch=_dflt_scratch, scalars=_dflt_scalars, origin=_dflt_origin):
        _object_setattr(self, '__dict__', {'launches': launches, 'scratch': scratch, 'scalars': scalars, 'origin': origin})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(launches={self.launches!r}, scratch={self.scratch!r}, scalars={self.scalars!r}, origin={self.origin!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.launches, self.scratch, self.scalars, self.origin,) == (other.launches, other.scratch, other.scalars, other.origin,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('launches', 'scratch', 'scalars', 'origin',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('launches', 'scratch', 'scalars', 'origin',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.launches, self.scratch, self.scalars, self.origin,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_plan_LaunchShape(cls, defaults):

    def __init__(self, number, kernel, grid, block, dynamic_smem, missing):
        _object_setattr(self, '__dict__', {'number': number, 'kernel': kernel, 'grid': grid, 'block': block, 'dynamic_smem': dynamic_smem, 'missing': missing})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(number={self.number!r}, kernel={self.kernel!r}, grid={self.grid!r}, block={self.block!r}, dynamic_smem={self.dynamic_smem!r}, missing={self.missing!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.number, self.kernel, self.grid, self.block, self.dynamic_smem, self.missing,) == (other.number, other.kernel, other.grid, other.block, other.dynamic_smem, other.missing,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('number', 'kernel', 'grid', 'block', 'dynamic_smem', 'missing',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('number', 'kernel', 'grid', 'block', 'dynamic_smem', 'missing',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.number, self.kernel, self.grid, self.block, self.dynamic_smem, self.missing,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_plan_PlanScalar(cls, defaults):

    def __init__(self, name, dtype, value):
        _object_setattr(self, '__dict__', {'name': name, 'dtype': dtype, 'value': value})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, dtype={self.dtype!r}, value={self.value!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.dtype, self.value,) == (other.name, other.dtype, other.value,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'dtype', 'value',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'dtype', 'value',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.dtype, self.value,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_plan_PlannedLaunch(cls, defaults):

    def __init__(self, kernel, grid, block, dynamic_smem, args):
        _object_setattr(self, '__dict__', {'kernel': kernel, 'grid': grid, 'block': block, 'dynamic_smem': dynamic_smem, 'args': args})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(kernel={self.kernel!r}, grid={self.grid!r}, block={self.block!r}, dynamic_smem={self.dynamic_smem!r}, args={self.args!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.kernel, self.grid, self.block, self.dynamic_smem, self.args,) == (other.kernel, other.grid, other.block, other.dynamic_smem, other.args,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('kernel', 'grid', 'block', 'dynamic_smem', 'args',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('kernel', 'grid', 'block', 'dynamic_smem', 'args',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.kernel, self.grid, self.block, self.dynamic_smem, self.args,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_ArraySpec(cls, defaults):
    _dflt_distribution, _dflt_rtol, _dflt_atol = defaults

    def __init__(self, name, dtype, shape, distribution=_dflt_distribution, rtol=_dflt_rtol, atol=_dflt_atol):
        _object_setattr(self, '__dict__', {'name': name, 'dtype': dtype, 'shape': shape, 'distribution': distribution, 'rtol': rtol, 'atol': atol})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, dtype={self.dtype!r}, shape={self.shape!r}, distribution={self.distribution!r}, rtol={self.rtol!r}, atol={self.atol!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.dtype, self.shape, self.distribution, self.rtol, self.atol,) == (other.name, other.dtype, other.shape, other.distribution, other.rtol, other.atol,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'dtype', 'shape', 'distribution', 'rtol', 'atol',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'dtype', 'shape', 'distribution', 'rtol', 'atol',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.dtype, self.shape, self.distribution, self.rtol, self.atol,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_ConcreteLaunch(cls, defaults):
    _dflt_scratch, = defaults

    def __init__(self, grid, block, dynamic_smem, args, scratch=_dflt_scratch):
        _object_setattr(self, '__dict__', {'grid': grid, 'block': block, 'dynamic_smem': dynamic_smem, 'args': args, 'scratch': scratch})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(grid={self.grid!r}, block={self.block!r}, dynamic_smem={self.dynamic_smem!r}, args={self.args!r}, scratch={self.scratch!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.grid, self.block, self.dynamic_smem, self.args, self.scratch,) == (other.grid, other.block, other.dynamic_smem, other.args, other.scratch,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('grid', 'block', 'dynamic_smem', 'args', 'scratch',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('grid', 'block', 'dynamic_smem', 'args', 'scratch',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.grid, self.block, self.dynamic_smem, self.args, self.scratch,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_ConcreteScratch(cls, defaults):

    def __init__(self, name, dtype, shape, zero):
        _object_setattr(self, '__dict__', {'name': name, 'dtype': dtype, 'shape': shape, 'zero': zero})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, dtype={self.dtype!r}, shape={self.shape!r}, zero={self.zero!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.dtype, self.shape, self.zero,) == (other.name, other.dtype, other.shape, other.zero,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'dtype', 'shape', 'zero',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'dtype', 'shape', 'zero',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.dtype, self.shape, self.zero,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_Distribution(cls, defaults):

    def __init__(self, kind, params):
        _object_setattr(self, '__dict__', {'kind': kind, 'params': params})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(kind={self.kind!r}, params={self.params!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.kind, self.params,) == (other.kind, other.params,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('kind', 'params',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('kind', 'params',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.kind, self.params,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_Implementation(cls, defaults):
    _dflt_strategy, _dflt_plan = defaults

    def __init__(self, file, kernel, strategy=_dflt_strategy, plan=_dflt_plan):
        _object_setattr(self, '__dict__', {'file': file, 'kernel': kernel, 'strategy': strategy, 'plan': plan})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(file={self.file!r}, kernel={self.kernel!r}, strategy={self.strategy!r}, plan={self.plan!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.file, self.kernel, self.strategy,) == (other.file, other.kernel, other.strategy,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('file', 'kernel', 'strategy', 'plan',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('file', 'kernel', 'strategy', 'plan',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.file, self.kernel, self.strategy,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_LaunchSpec(cls, defaults):
    _dflt_dynamic_smem, _dflt_args, _dflt_scratch = defaults

    def __init__(self, block, grid, dynamic_smem=_dflt_dynamic_smem, args=_dflt_args, scratch=_dflt_scratch):
        _object_setattr(self, '__dict__', {'block': block, 'grid': grid, 'dynamic_smem': dynamic_smem, 'args': args, 'scratch': scratch})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(block={self.block!r}, grid={self.grid!r}, dynamic_smem={self.dynamic_smem!r}, args={self.args!r}, scratch={self.scratch!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.block, self.grid, self.dynamic_smem, self.args, self.scratch,) == (other.block, other.grid, other.dynamic_smem, other.args, other.scratch,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('block', 'grid', 'dynamic_smem', 'args', 'scratch',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('block', 'grid', 'dynamic_smem', 'args', 'scratch',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.block, self.grid, self.dynamic_smem, self.args, self.scratch,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_ProblemSpec(cls, defaults):
    _dflt_style, _dflt_description, _dflt_prompt_source, _dflt_implementations, _dflt_scratch, _dflt_flops, _dflt_flops_peak, _dflt_raw = defaults

    def __init__(self, name, path, sizes, inputs, outputs, scalars, launch, reference, rtol, atol, style=_dflt_style, description=_dflt_description, prompt_source=_dflt_prompt_source, implementations=_dflt_implementations, scratch=_dflt_scratch, flops=_dflt_flops, flops_peak=_dflt_flops_peak, raw=_FACTORY):
        _object_setattr(self, '__dict__', {'name': name, 'path': path, 'sizes': sizes, 'inputs': inputs, 'outputs': outputs, 'scalars': scalars, 'launch': launch, 'reference': reference, 'rtol': rtol, 'atol': atol, 'style': style, 'description': description, 'prompt_source': prompt_source, 'implementations': implementations, 'scratch': scratch, 'flops': flops, 'flops_peak': flops_peak, 'raw': _dflt_raw() if raw is _FACTORY else raw})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, path={self.path!r}, sizes={self.sizes!r}, inputs={self.inputs!r}, outputs={self.outputs!r}, scalars={self.scalars!r}, launch={self.launch!r}, reference={self.reference!r}, rtol={self.rtol!r}, atol={self.atol!r}, style={self.style!r}, description={self.description!r}, prompt_source={self.prompt_source!r}, implementations={self.implementations!r}, scratch={self.scratch!r}, flops={self.flops!r}, flops_peak={self.flops_peak!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.path, self.sizes, self.inputs, self.outputs, self.scalars, self.launch, self.reference, self.rtol, self.atol, self.style, self.description, self.prompt_source, self.implementations, self.scratch, self.flops, self.flops_peak,) == (other.name, other.path, other.sizes, other.inputs, other.outputs, other.scalars, other.launch, other.reference, other.rtol, other.atol, other.style, other.description, other.prompt_source, other.implementations, other.scratch, other.flops, other.flops_peak,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'path', 'sizes', 'inputs', 'outputs', 'scalars', 'launch', 'reference', 'rtol', 'atol', 'style', 'description', 'prompt_source', 'implementations', 'scratch', 'flops', 'flops_peak', 'raw',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'path', 'sizes', 'inputs', 'outputs', 'scalars', 'launch', 'reference', 'rtol', 'atol', 'style', 'description', 'prompt_source', 'implementations', 'scratch', 'flops', 'flops_peak', 'raw',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.path, self.sizes, self.inputs, self.outputs, self.scalars, self.launch, self.reference, self.rtol, self.atol, self.style, self.description, self.prompt_source, self.implementations, self.scratch, self.flops, self.flops_peak,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_ReferenceSpec(cls, defaults):
    _dflt_python, _dflt_kernel, _dflt_arrays, _dflt_launch = defaults

    def __init__(self, python=_dflt_python, kernel=_dflt_kernel, arrays=_dflt_arrays, launch=_dflt_launch):
        _object_setattr(self, '__dict__', {'python': python, 'kernel': kernel, 'arrays': arrays, 'launch': launch})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(python={self.python!r}, kernel={self.kernel!r}, arrays={self.arrays!r}, launch={self.launch!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.python, self.kernel, self.arrays, self.launch,) == (other.python, other.kernel, other.arrays, other.launch,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('python', 'kernel', 'arrays', 'launch',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('python', 'kernel', 'arrays', 'launch',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.python, self.kernel, self.arrays, self.launch,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_ScalarSpec(cls, defaults):

    def __init__(self, name, dtype, value):
        _object_setattr(self, '__dict__', {'name': name, 'dtype': dtype, 'value': value})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, dtype={self.dtype!r}, value={self.value!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.dtype, self.value,) == (other.name, other.dtype, other.value,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'dtype', 'value',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'dtype', 'value',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.dtype, self.value,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}


def _kernelscope_runner_spec_ScratchSpec(cls, defaults):
    _dflt_zero, = defaults

    def __init__(self, name, dtype, shape, zero=_dflt_zero):
        _object_setattr(self, '__dict__', {'name': name, 'dtype': dtype, 'shape': shape, 'zero': zero})

    def __repr__(self):
        return self.__class__.__qualname__ + f"(name={self.name!r}, dtype={self.dtype!r}, shape={self.shape!r}, zero={self.zero!r})"

    def __eq__(self, other):
        if other.__class__ is self.__class__:
            return (self.name, self.dtype, self.shape, self.zero,) == (other.name, other.dtype, other.shape, other.zero,)
        return NotImplemented

    def __setattr__(self, name, value):
        if type(self) is cls or name in ('name', 'dtype', 'shape', 'zero',):
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):
        if type(self) is cls or name in ('name', 'dtype', 'shape', 'zero',):
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    def __hash__(self):
        return hash((self.name, self.dtype, self.shape, self.zero,))

    return {'__init__': __init__, '__repr__': __repr__, '__eq__': __eq__, '__setattr__': __setattr__, '__delattr__': __delattr__, '__hash__': __hash__}



CLASSES = {
    'kernelscope.analyses.intensity.IntensityResult': (
        (False, False, False, (('flops_per_thread', 0, True, True), ('flops_by_precision', 2, True, True), ('special_ops_per_thread', 1, True, True), ('global_bytes_per_thread', 1, True, True), ('shared_bytes_per_thread', 1, True, True), ('arithmetic_intensity', 1, True, True), ('bound', 1, True, True), ('gpu', 1, True, True), ('ridge_point', 1, True, True), ('attainable_flops', 1, True, True), ('threads_launched', 1, True, True), ('total_flops', 1, True, True), ('total_global_bytes', 1, True, True), ('symbolic', 2, True, True), ('dominant_precision', 1, True, True))),
        _kernelscope_analyses_intensity_IntensityResult,
        "IntensityResult(flops_per_thread: 'float | None', flops_by_precision: 'dict' = <factory>, special_ops_per_thread: 'float | None' = 0.0, global_bytes_per_thread: 'float | None' = None, shared_bytes_per_thread: 'float | None' = None, arithmetic_intensity: 'float | None' = None, bound: 'str | None' = None, gpu: 'str | None' = None, ridge_point: 'float | None' = None, attainable_flops: 'float | None' = None, threads_launched: 'int | None' = None, total_flops: 'float | None' = None, total_global_bytes: 'float | None' = None, symbolic: 'dict' = <factory>, dominant_precision: 'str' = 'fp32')"),
    'kernelscope.analyses.memory.AccessResult': (
        (False, False, False, (('line', 0, True, True), ('column', 0, True, True), ('expr', 0, True, True), ('array', 0, True, True), ('space', 0, True, True), ('op', 0, True, True), ('elem_bytes', 0, True, True), ('pattern', 0, True, True), ('stride_bytes', 0, True, True), ('sectors_per_request', 1, True, True), ('ideal_sectors', 1, True, True), ('bank_ways', 1, True, True), ('wavefronts_per_request', 1, True, True), ('exec_weight', 1, True, True), ('requests_per_block', 1, True, True), ('active_lanes', 1, True, True), ('in_function', 1, True, True), ('note', 1, True, True), ('averaging_weight', 1, True, True))),
        _kernelscope_analyses_memory_AccessResult,
        "AccessResult(line: 'int', column: 'int', expr: 'str', array: 'str', space: 'str', op: 'str', elem_bytes: 'int', pattern: 'str', stride_bytes: 'object', sectors_per_request: 'float | None' = None, ideal_sectors: 'float | None' = None, bank_ways: 'float | None' = None, wavefronts_per_request: 'float | None' = None, exec_weight: 'object' = 1, requests_per_block: 'float | None' = None, active_lanes: 'float | None' = None, in_function: 'str | None' = None, note: 'str | None' = None, averaging_weight: 'float' = 1.0)"),
    'kernelscope.analyses.memory.BranchResult': (
        (False, False, False, (('line', 0, True, True), ('column', 0, True, True), ('kind', 0, True, True), ('divergent', 0, True, True), ('share_true', 0, True, True), ('divergent_warps', 0, True, True), ('in_loop', 0, True, True))),
        _kernelscope_analyses_memory_BranchResult,
        "BranchResult(line: 'int', column: 'int', kind: 'str', divergent: 'bool | None', share_true: 'float | None', divergent_warps: 'float | None', in_loop: 'bool')"),
    'kernelscope.analyses.memory.MemoryResult': (
        (False, False, False, (('accesses', 2, True, True), ('branches', 2, True, True))),
        _kernelscope_analyses_memory_MemoryResult,
        "MemoryResult(accesses: 'list' = <factory>, branches: 'list' = <factory>)"),
    'kernelscope.analyses.occupancy.OccupancyResult': (
        (True, False, False, (('arch', 0, True, True), ('block_size', 0, True, True), ('registers', 0, True, True), ('registers_source', 0, True, True), ('static_shared_bytes', 0, True, True), ('dynamic_shared_bytes', 0, True, True), ('barriers', 0, True, True), ('max_threads_per_block', 0, True, True), ('active_blocks_per_sm', 0, True, True), ('active_warps_per_sm', 0, True, True), ('max_warps_per_sm', 0, True, True), ('theoretical_occupancy', 0, True, True), ('limiter', 0, True, True), ('limits', 0, True, True), ('allocated_registers_per_block', 0, True, True), ('allocated_shared_bytes_per_block', 0, True, True), ('shared_memory_config_bytes', 0, True, True), ('carveout', 0, True, True), ('shared_memory_opt_in', 0, True, True), ('sweep', 1, False, True), ('best_block_size', 1, True, True))),
        _kernelscope_analyses_occupancy_OccupancyResult,
        "OccupancyResult(arch: 'str', block_size: 'int', registers: 'int', registers_source: 'str', static_shared_bytes: 'int', dynamic_shared_bytes: 'int', barriers: 'int', max_threads_per_block: 'int', active_blocks_per_sm: 'int', active_warps_per_sm: 'int', max_warps_per_sm: 'int', theoretical_occupancy: 'float', limiter: 'str', limits: 'dict', allocated_registers_per_block: 'int', allocated_shared_bytes_per_block: 'int', shared_memory_config_bytes: 'int', carveout: 'Optional[int]', shared_memory_opt_in: 'bool', sweep: 'tuple' = (), best_block_size: 'Optional[int]' = None)"),
    'kernelscope.analyses.occupancy.SweepPoint': (
        (True, False, False, (('block_size', 0, True, True), ('active_blocks_per_sm', 0, True, True), ('theoretical_occupancy', 0, True, True))),
        _kernelscope_analyses_occupancy_SweepPoint,
        "SweepPoint(block_size: 'int', active_blocks_per_sm: 'int', theoretical_occupancy: 'float')"),
    'kernelscope.analyses.sync.AtomicContention': (
        (True, False, False, (('array', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('lanes', 0, True, True), ('in_loop', 0, True, True))),
        _kernelscope_analyses_sync_AtomicContention,
        "AtomicContention(array: 'str', line: 'int', column: 'int', lanes: 'int', in_loop: 'bool')"),
    'kernelscope.analyses.sync.DivergentBarrier': (
        (True, False, False, (('line', 0, True, True), ('column', 0, True, True), ('reason', 0, True, True))),
        _kernelscope_analyses_sync_DivergentBarrier,
        "DivergentBarrier(line: 'int', column: 'int', reason: 'str')"),
    'kernelscope.analyses.sync.LoopNode': (
        (False, False, False, (('loop', 0, True, True), ('children', 2, True, True), ('carried', 1, True, True), ('quiet', 1, True, True), ('batchable', 1, True, True), ('nest_batchable', 1, True, True), ('read_after', 1, True, True), ('plain_steps', 1, True, True))),
        _kernelscope_analyses_sync_LoopNode,
        "LoopNode(loop: 'object', children: 'list' = <factory>, carried: 'frozenset' = frozenset(), quiet: 'bool' = False, batchable: 'bool' = False, nest_batchable: 'bool' = False, read_after: 'list | None' = None, plain_steps: 'int | None' = None)"),
    'kernelscope.analyses.sync.MaskMismatch': (
        (True, False, False, (('name', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('message', 0, True, True))),
        _kernelscope_analyses_sync_MaskMismatch,
        "MaskMismatch(name: 'str', line: 'int', column: 'int', message: 'str')"),
    'kernelscope.analyses.sync.ReturnBeforeBarrier': (
        (True, False, False, (('line', 0, True, True), ('column', 0, True, True), ('barrier_line', 0, True, True), ('message', 0, True, True))),
        _kernelscope_analyses_sync_ReturnBeforeBarrier,
        "ReturnBeforeBarrier(line: 'int', column: 'int', barrier_line: 'int', message: 'str')"),
    'kernelscope.analyses.sync.SharedRace': (
        (True, False, False, (('array', 0, True, True), ('kind', 0, True, True), ('first_line', 0, True, True), ('first_column', 0, True, True), ('second_line', 0, True, True), ('second_column', 0, True, True), ('scope', 0, True, True), ('message', 0, True, True), ('one_store', 1, True, True))),
        _kernelscope_analyses_sync_SharedRace,
        "SharedRace(array: 'str', kind: 'str', first_line: 'int', first_column: 'int', second_line: 'int', second_column: 'int', scope: 'str', message: 'str', one_store: 'bool' = False)"),
    'kernelscope.analyses.sync.Site': (
        (True, False, False, (('name', 0, True, True), ('line', 0, True, True), ('column', 0, True, True))),
        _kernelscope_analyses_sync_Site,
        "Site(name: 'str', line: 'int', column: 'int')"),
    'kernelscope.analyses.sync.SyncResult': (
        (True, False, False, (('barriers', 0, True, True), ('divergent_barriers', 1, True, True), ('shared_races', 1, True, True), ('global_races', 1, True, True), ('returns_before_barrier', 1, True, True), ('redundant_barriers', 1, True, True), ('mask_mismatches', 1, True, True), ('atomic_count', 1, True, True), ('atomics_in_loops', 1, True, True), ('contention', 1, True, True), ('fences', 1, True, True), ('exact', 1, True, True), ('notes', 1, True, True))),
        _kernelscope_analyses_sync_SyncResult,
        "SyncResult(barriers: 'int', divergent_barriers: 'tuple' = (), shared_races: 'tuple' = (), global_races: 'tuple' = (), returns_before_barrier: 'tuple' = (), redundant_barriers: 'tuple' = (), mask_mismatches: 'tuple' = (), atomic_count: 'int' = 0, atomics_in_loops: 'int' = 0, contention: 'tuple' = (), fences: 'tuple' = (), exact: 'bool' = True, notes: 'tuple' = ())"),
    'kernelscope.analyses.threads.BlockShape': (
        (True, False, False, (('x', 0, True, True), ('y', 1, True, True), ('z', 1, True, True))),
        _kernelscope_analyses_threads_BlockShape,
        None),
    'kernelscope.analyses.threads.ThreadSpace': (
        (True, False, False, (('block', 0, True, True), ('linear', 0, True, True), ('lane', 0, True, True), ('warp', 0, True, True), ('active', 0, True, True), ('env', 0, True, True))),
        _kernelscope_analyses_threads_ThreadSpace,
        None),
    'kernelscope.analyze.FileResult': (
        (False, False, False, (('path', 0, True, True), ('errors', 0, True, True), ('kernels', 0, True, True), ('diagnostics', 0, True, True), ('model', 1, True, True), ('notes', 2, True, True))),
        _kernelscope_analyze_FileResult,
        "FileResult(path: 'str', errors: 'list', kernels: 'list', diagnostics: 'list', model: 'object' = None, notes: 'list' = <factory>)"),
    'kernelscope.analyze.KernelResult': (
        (False, False, False, (('kernel', 0, True, True), ('block', 0, True, True), ('block_source', 0, True, True), ('grid', 0, True, True), ('memory', 0, True, True), ('occupancy', 1, True, True), ('intensity', 1, True, True), ('sync', 1, True, True), ('resources', 1, True, True), ('diagnostics', 2, True, True), ('launches', 2, True, True), ('path', 1, True, True), ('rejected_launches', 2, True, True), ('plan', 1, True, True))),
        _kernelscope_analyze_KernelResult,
        "KernelResult(kernel: 'object', block: 'BlockShape', block_source: 'str', grid: 'tuple | None', memory: 'object', occupancy: 'object' = None, intensity: 'object' = None, sync: 'object' = None, resources: 'object' = None, diagnostics: 'list' = <factory>, launches: 'list' = <factory>, path: 'str' = '', rejected_launches: 'list' = <factory>, plan: 'dict | None' = None)"),
    'kernelscope.analyze.LaunchResult': (
        (True, False, False, (('line', 0, True, True), ('column', 0, True, True), ('block', 0, True, True), ('grid', 0, True, True), ('dynamic_shared_bytes', 0, True, True), ('load_sectors_per_request', 0, True, True), ('store_sectors_per_request', 0, True, True), ('active_blocks_per_sm', 0, True, True), ('theoretical_occupancy', 0, True, True))),
        _kernelscope_analyze_LaunchResult,
        None),
    'kernelscope.analyze.Options': (
        (False, False, False, (('arch', 1, True, True), ('block', 1, True, True), ('grid', 1, True, True), ('bindings', 2, True, True), ('types', 2, True, True), ('defines', 2, True, True), ('registers', 1, True, True), ('dynamic_smem', 1, True, True), ('preprocess', 1, True, True), ('enabled', 1, True, True), ('plan', 1, True, True))),
        _kernelscope_analyze_Options,
        "Options(arch: 'str' = 'sm_90', block: 'tuple | None' = None, grid: 'tuple | None' = None, bindings: 'dict' = <factory>, types: 'dict' = <factory>, defines: 'dict' = <factory>, registers: 'str' = 'auto', dynamic_smem: 'int | None' = None, preprocess: 'str' = 'builtin', enabled: 'object' = None, plan: 'bool' = False)"),
    'kernelscope.analyze.RejectedLaunch': (
        (True, False, False, (('line', 0, True, True), ('column', 0, True, True), ('threads', 0, True, True), ('limit', 0, True, True))),
        _kernelscope_analyze_RejectedLaunch,
        None),
    'kernelscope.frontend.body.Pointer': (
        (False, True, False, (('base', 0, True, True), ('space', 0, True, True), ('offset', 0, True, True), ('pointee', 0, True, True), ('dims', 1, True, True))),
        _kernelscope_frontend_body_Pointer,
        "Pointer(base: 'str', space: 'str', offset: 'sx.Expr', pointee: 'str | None', dims: 'tuple' = ())"),
    'kernelscope.frontend.body.Scope': (
        (False, False, False, (('accesses', 2, True, True), ('loops', 2, True, True), ('branches', 2, True, True), ('barriers', 2, True, True), ('calls', 2, True, True), ('arith', 2, True, True), ('shared_arrays', 2, True, True), ('local_arrays', 2, True, True), ('dynamic_local_accesses', 2, True, True), ('early_returns', 2, True, True), ('flags', 2, True, True), ('notes', 2, True, True), ('counter', 1, True, True))),
        _kernelscope_frontend_body_Scope,
        None),
    'kernelscope.frontend.body.Value': (
        (False, True, False, (('expr', 0, True, True), ('ctype', 1, True, True), ('pointer', 1, True, True), ('dims', 1, True, True), ('location', 1, True, True))),
        _kernelscope_frontend_body_Value,
        "Value(expr: 'sx.Expr', ctype: 'str | None' = None, pointer: 'Pointer | None' = None, dims: 'tuple | None' = None, location: 'Pointer | None' = None)"),
    'kernelscope.frontend.ctypes.Field': (
        (False, False, False, (('name', 0, True, True), ('type_name', 0, True, True), ('offset', 0, True, True), ('size', 0, True, True), ('count', 1, True, True))),
        _kernelscope_frontend_ctypes_Field,
        "Field(name: 'str', type_name: 'str', offset: 'int', size: 'int', count: 'int' = 1)"),
    'kernelscope.frontend.ctypes.StructLayout': (
        (False, False, False, (('name', 0, True, True), ('size', 0, True, True), ('align', 0, True, True), ('fields', 2, True, True))),
        _kernelscope_frontend_ctypes_StructLayout,
        "StructLayout(name: 'str', size: 'int', align: 'int', fields: 'dict' = <factory>)"),
    'kernelscope.frontend.macros.Macro': (
        (False, False, False, (('name', 0, True, True), ('body', 0, True, True), ('params', 1, True, True), ('variadic', 1, True, True), ('line', 1, True, True), ('_tokens', 1, True, True))),
        _kernelscope_frontend_macros_Macro,
        "Macro(name: 'str', body: 'str', params: 'list | None' = None, variadic: 'bool' = False, line: 'int' = 0, _tokens: 'list | None' = None)"),
    'kernelscope.frontend.macros.Preprocessed': (
        (False, False, False, (('text', 0, True, True), ('original', 0, True, True), ('positions', 0, True, True), ('macros', 0, True, True), ('errors', 2, True, True), ('_line_starts', 2, True, True), ('_line_cols', 2, True, True), ('_last_piece', 1, False, False), ('_last_line', 1, False, False))),
        _kernelscope_frontend_macros_Preprocessed,
        "Preprocessed(text: 'str', original: 'str', positions: 'PositionMap', macros: 'dict', errors: 'list' = <factory>, _line_starts: 'list' = <factory>, _line_cols: 'dict' = <factory>, _last_piece: 'tuple' = (0, -1, 0, 0), _last_line: 'tuple' = (0, -1, 0))"),
    'kernelscope.frontend.shims.LaunchBoundsMark': (
        (True, False, False, (('offset', 0, True, True), ('arguments', 0, True, True))),
        _kernelscope_frontend_shims_LaunchBoundsMark,
        "LaunchBoundsMark(offset: 'int', arguments: 'tuple')"),
    'kernelscope.frontend.source.SourceText': (
        (True, False, False, (('path', 0, True, True), ('text', 0, True, True), ('encoding', 0, True, True))),
        _kernelscope_frontend_source_SourceText,
        "SourceText(path: 'str', text: 'str', encoding: 'str')"),
    'kernelscope.lint.config.Overrides': (
        (True, False, False, (('select', 1, True, True), ('ignore', 1, True, True), ('severity', 1, True, True), ('include', 1, True, True), ('extend_exclude', 1, True, True), ('arch', 1, True, True), ('block', 1, True, True), ('grid', 1, True, True), ('bindings', 1, True, True), ('defines', 1, True, True), ('types', 1, True, True), ('registers', 1, True, True), ('fail_on', 1, True, True), ('show_info', 1, True, True))),
        _kernelscope_lint_config_Overrides,
        None),
    'kernelscope.lint.config.Settings': (
        (True, False, False, (('root', 2, True, True), ('source', 1, True, True), ('select', 1, True, True), ('ignore', 1, True, True), ('severity', 1, True, True), ('per_file_ignores', 1, True, True), ('include', 1, True, True), ('exclude', 1, True, True), ('arch', 1, True, True), ('block', 1, True, True), ('grid', 1, True, True), ('bindings', 1, True, True), ('defines', 1, True, True), ('types', 1, True, True), ('registers', 1, True, True), ('fail_on', 1, True, True), ('show_info', 1, True, True))),
        _kernelscope_lint_config_Settings,
        None),
    'kernelscope.lint.findings.FileOutcome': (
        (True, False, False, (('path', 0, True, True), ('findings', 1, True, True), ('lines', 1, True, True), ('suppressed', 1, True, True), ('error', 1, True, True), ('hidden_info', 1, True, True))),
        _kernelscope_lint_findings_FileOutcome,
        "FileOutcome(path: 'str', findings: 'tuple' = (), lines: 'int' = 0, suppressed: 'int' = 0, error: 'str | None' = None, hidden_info: 'int' = 0)"),
    'kernelscope.lint.findings.Finding': (
        (True, False, False, (('diagnostic', 0, True, True), ('fingerprint', 0, True, True), ('failing', 0, True, True))),
        _kernelscope_lint_findings_Finding,
        "Finding(diagnostic: 'Diagnostic', fingerprint: 'str', failing: 'bool')"),
    'kernelscope.lint.findings.LintReport': (
        (False, False, False, (('files', 2, True, True), ('skipped', 2, True, True))),
        _kernelscope_lint_findings_LintReport,
        "LintReport(files: 'list' = <factory>, skipped: 'list' = <factory>)"),
    'kernelscope.lint.suppressions.Comment': (
        (True, False, False, (('line', 0, True, True), ('column', 0, True, True), ('text', 0, True, True), ('own_line', 0, True, True), ('start', 0, True, True), ('end', 0, True, True))),
        _kernelscope_lint_suppressions_Comment,
        "Comment(line: 'int', column: 'int', text: 'str', own_line: 'bool', start: 'int', end: 'int')"),
    'kernelscope.lint.suppressions.Suppression': (
        (False, False, False, (('kind', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('codes', 0, True, True), ('first', 0, True, True), ('last', 0, True, True), ('used', 2, True, True))),
        _kernelscope_lint_suppressions_Suppression,
        "Suppression(kind: 'str', line: 'int', column: 'int', codes: 'Optional[tuple]', first: 'int', last: 'int', used: 'set' = <factory>)"),
    'kernelscope.model.Access': (
        (False, True, False, (('array', 0, True, True), ('space', 0, True, True), ('op', 0, True, True), ('address', 0, True, True), ('elem_bytes', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('text', 0, True, True), ('context', 2, True, True), ('stride_hint_bytes', 1, True, True), ('in_function', 1, True, True), ('hoisted_loops', 1, True, True), ('cached', 1, True, True), ('stored', 1, True, True), ('seq', 1, True, True))),
        _kernelscope_model_Access,
        "Access(array: 'str', space: 'str', op: 'str', address: 'Any', elem_bytes: 'int', line: 'int', column: 'int', text: 'str', context: 'Context' = <factory>, stride_hint_bytes: 'Optional[int]' = None, in_function: 'Optional[str]' = None, hoisted_loops: 'int' = 0, cached: 'Optional[str]' = None, stored: 'Any' = None, seq: 'int' = 0)"),
    'kernelscope.model.Arith': (
        (False, True, False, (('op', 0, True, True), ('precision', 0, True, True), ('flops', 0, True, True), ('line', 0, True, True), ('context', 2, True, True), ('seq', 1, True, True))),
        _kernelscope_model_Arith,
        None),
    'kernelscope.model.Barrier': (
        (False, True, False, (('kind', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('context', 2, True, True), ('mask', 1, True, True), ('seq', 1, True, True))),
        _kernelscope_model_Barrier,
        "Barrier(kind: 'str', line: 'int', column: 'int', context: 'Context' = <factory>, mask: 'Any' = None, seq: 'int' = 0)"),
    'kernelscope.model.Branch': (
        (False, True, False, (('condition', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('context', 2, True, True), ('kind', 1, True, True), ('has_else', 1, True, True), ('seq', 1, True, True))),
        _kernelscope_model_Branch,
        "Branch(condition: 'Any', line: 'int', column: 'int', context: 'Context' = <factory>, kind: 'str' = 'if', has_else: 'bool' = False, seq: 'int' = 0)"),
    'kernelscope.model.Call': (
        (False, True, False, (('name', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('args', 1, True, True), ('context', 2, True, True), ('seq', 1, True, True))),
        _kernelscope_model_Call,
        "Call(name: 'str', line: 'int', column: 'int', args: 'tuple' = (), context: 'Context' = <factory>, seq: 'int' = 0)"),
    'kernelscope.model.Condition': (
        (False, True, False, (('expr', 0, True, True), ('line', 0, True, True), ('negated', 1, True, True), ('exclusive', 1, True, True))),
        _kernelscope_model_Condition,
        "Condition(expr: 'Any', line: 'int', negated: 'bool' = False, exclusive: 'bool' = False)"),
    'kernelscope.model.Context': (
        (False, True, False, (('loops', 1, True, True), ('conditions', 1, True, True))),
        _kernelscope_model_Context,
        None),
    'kernelscope.model.Diagnostic': (
        (True, False, False, (('rule', 0, True, True), ('severity', 0, True, True), ('path', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('message', 0, True, True), ('kernel', 1, True, True), ('end_line', 1, True, True), ('related', 1, True, True))),
        _kernelscope_model_Diagnostic,
        None),
    'kernelscope.model.FileModel': (
        (False, True, False, (('path', 0, True, True), ('kernels', 2, True, True), ('launches', 2, True, True), ('errors', 2, True, True), ('device_functions', 2, True, True), ('text', 1, True, True), ('notes', 2, True, True))),
        _kernelscope_model_FileModel,
        "FileModel(path: 'str', kernels: 'list' = <factory>, launches: 'list' = <factory>, errors: 'list' = <factory>, device_functions: 'dict' = <factory>, text: 'str' = '', notes: 'list' = <factory>)"),
    'kernelscope.model.Kernel': (
        (False, True, False, (('name', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('params', 2, True, True), ('template_params', 2, True, True), ('template_instantiations', 2, True, True), ('template_bindings', 2, True, True), ('template_types', 2, True, True), ('launch_bounds', 1, True, True), ('extern_c', 1, True, True), ('accesses', 2, True, True), ('loops', 2, True, True), ('branches', 2, True, True), ('barriers', 2, True, True), ('calls', 2, True, True), ('arith', 2, True, True), ('shared_arrays', 2, True, True), ('local_arrays', 2, True, True), ('dynamic_local_accesses', 2, True, True), ('launches', 2, True, True), ('early_returns', 2, True, True), ('uses_shuffle', 1, True, True), ('uses_cooperative_groups', 1, True, True), ('uses_inline_asm', 1, True, True), ('shared_memory_opt_in', 1, True, True), ('end_line', 1, True, True), ('notes', 2, True, True))),
        _kernelscope_model_Kernel,
        "Kernel(name: 'str', line: 'int', column: 'int', params: 'list' = <factory>, template_params: 'list' = <factory>, template_instantiations: 'list' = <factory>, template_bindings: 'dict' = <factory>, template_types: 'dict' = <factory>, launch_bounds: 'tuple' = (), extern_c: 'bool' = False, accesses: 'list' = <factory>, loops: 'list' = <factory>, branches: 'list' = <factory>, barriers: 'list' = <factory>, calls: 'list' = <factory>, arith: 'list' = <factory>, shared_arrays: 'list' = <factory>, local_arrays: 'dict' = <factory>, dynamic_local_accesses: 'list' = <factory>, launches: 'list' = <factory>, early_returns: 'list' = <factory>, uses_shuffle: 'bool' = False, uses_cooperative_groups: 'bool' = False, uses_inline_asm: 'bool' = False, shared_memory_opt_in: 'Optional[bool]' = None, end_line: 'int' = 0, notes: 'list' = <factory>)"),
    'kernelscope.model.LaunchSite': (
        (False, True, False, (('kernel', 0, True, True), ('line', 0, True, True), ('column', 0, True, True), ('grid', 0, True, True), ('block', 0, True, True), ('dynamic_smem', 0, True, True), ('template_args', 1, True, True), ('grid_text', 1, True, True), ('block_text', 1, True, True), ('host_bindings', 2, True, True), ('argument_types', 2, True, True), ('grid_exprs', 1, True, True), ('block_exprs', 1, True, True))),
        _kernelscope_model_LaunchSite,
        "LaunchSite(kernel: 'str', line: 'int', column: 'int', grid: 'Optional[Dim3]', block: 'Optional[Dim3]', dynamic_smem: 'Optional[int]', template_args: 'tuple' = (), grid_text: 'str' = '', block_text: 'str' = '', host_bindings: 'dict' = <factory>, argument_types: 'list' = <factory>, grid_exprs: 'Any' = None, block_exprs: 'Any' = None)"),
    'kernelscope.model.Loop': (
        (False, True, False, (('kind', 0, True, True), ('line', 0, True, True), ('var', 1, True, True), ('start', 1, True, True), ('bound', 1, True, True), ('step', 1, True, True), ('compare', 1, True, True), ('trip_count', 1, True, True), ('unrolled', 1, True, True), ('depth', 1, True, True), ('thread_dependent', 1, True, True), ('condition_depth', 1, True, True), ('assigned', 1, True, True), ('step_op', 1, True, True), ('seq', 1, True, True))),
        _kernelscope_model_Loop,
        None),
    'kernelscope.model.Param': (
        (False, True, False, (('name', 0, True, True), ('type_name', 0, True, True), ('is_pointer', 0, True, True), ('elem_bytes', 0, True, True), ('is_const', 1, True, True), ('is_restrict', 1, True, True), ('line', 1, True, True))),
        _kernelscope_model_Param,
        "Param(name: 'str', type_name: 'str', is_pointer: 'bool', elem_bytes: 'Optional[int]', is_const: 'bool' = False, is_restrict: 'bool' = False, line: 'int' = 0)"),
    'kernelscope.model.Position': (
        (True, False, False, (('line', 0, True, True), ('column', 0, True, True))),
        _kernelscope_model_Position,
        "Position(line: 'int', column: 'int')"),
    'kernelscope.model.SharedArray': (
        (False, True, False, (('name', 0, True, True), ('elem_bytes', 0, True, True), ('dims', 0, True, True), ('dynamic', 0, True, True), ('line', 0, True, True))),
        _kernelscope_model_SharedArray,
        "SharedArray(name: 'str', elem_bytes: 'int', dims: 'tuple', dynamic: 'bool', line: 'int')"),
    'kernelscope.model.SourceError': (
        (True, False, False, (('line', 0, True, True), ('column', 0, True, True), ('message', 0, True, True))),
        _kernelscope_model_SourceError,
        None),
    'kernelscope.profiles_db.ArchProfile': (
        (True, False, False, (('cc', 0, True, True), ('family', 0, True, True), ('warp_size', 0, True, True), ('max_threads_per_block', 0, True, True), ('max_threads_per_sm', 0, True, True), ('max_warps_per_sm', 0, True, True), ('max_blocks_per_sm', 0, True, True), ('registers_per_sm', 0, True, True), ('max_registers_per_block', 0, True, True), ('max_registers_per_thread', 0, True, True), ('register_allocation_unit', 0, True, True), ('sub_partitions', 0, True, True), ('shared_memory_per_sm', 0, True, True), ('max_shared_memory_per_block', 0, True, True), ('max_shared_memory_per_block_optin', 0, True, True), ('reserved_shared_memory_per_block', 0, True, True), ('shared_memory_allocation_unit', 0, True, True), ('carveouts_kb', 0, True, True), ('max_barriers_per_block', 0, True, True), ('barriers_per_sm_per_block_slot', 0, True, True))),
        _kernelscope_profiles_db_ArchProfile,
        "ArchProfile(cc: 'str', family: 'str', warp_size: 'int', max_threads_per_block: 'int', max_threads_per_sm: 'int', max_warps_per_sm: 'int', max_blocks_per_sm: 'int', registers_per_sm: 'int', max_registers_per_block: 'int', max_registers_per_thread: 'int', register_allocation_unit: 'int', sub_partitions: 'int', shared_memory_per_sm: 'int', max_shared_memory_per_block: 'int', max_shared_memory_per_block_optin: 'int', reserved_shared_memory_per_block: 'int', shared_memory_allocation_unit: 'int', carveouts_kb: 'tuple', max_barriers_per_block: 'int', barriers_per_sm_per_block_slot: 'int')"),
    'kernelscope.profiles_db.GpuProfile': (
        (True, False, False, (('name', 0, True, True), ('aliases', 0, True, True), ('cc', 0, True, True), ('sm_count', 0, True, True), ('fp32_lanes_per_sm', 0, True, True), ('boost_clock_mhz', 0, True, True), ('memory_gb', 0, True, True), ('memory_type', 0, True, True), ('memory_bandwidth_gbs', 0, True, True), ('l2_cache_mb', 0, True, True), ('peak_tflops', 0, True, True), ('source', 0, True, True))),
        _kernelscope_profiles_db_GpuProfile,
        "GpuProfile(name: 'str', aliases: 'tuple', cc: 'str', sm_count: 'int', fp32_lanes_per_sm: 'int', boost_clock_mhz: 'int', memory_gb: 'float', memory_type: 'str', memory_bandwidth_gbs: 'float', l2_cache_mb: 'Optional[float]', peak_tflops: 'dict', source: 'str')"),
    'kernelscope.resources.ResourceUsage': (
        (True, False, False, (('registers', 0, True, True), ('spill_stores', 1, True, True), ('spill_loads', 1, True, True), ('stack_bytes', 1, True, True), ('static_shared_bytes', 1, True, True), ('constant_bytes', 1, True, True), ('barriers', 1, True, True), ('source', 1, True, True), ('symbol', 1, True, True), ('instantiation', 1, True, True), ('instantiations', 1, False, True))),
        _kernelscope_resources_ResourceUsage,
        "ResourceUsage(registers: 'int', spill_stores: 'int' = 0, spill_loads: 'int' = 0, stack_bytes: 'int' = 0, static_shared_bytes: 'int' = 0, constant_bytes: 'int' = 0, barriers: 'int' = 0, source: 'str' = 'ptxas', symbol: 'str' = '', instantiation: 'str' = '', instantiations: 'tuple' = ())"),
    'kernelscope.runner.plan.ConcreteLaunch': (
        (True, False, False, (('kernel', 0, True, True), ('grid', 0, True, True), ('block', 0, True, True), ('dynamic_smem', 0, True, True), ('args', 0, True, True))),
        _kernelscope_runner_plan_ConcreteLaunch,
        "ConcreteLaunch(kernel: 'str', grid: 'tuple[int, int, int]', block: 'tuple[int, int, int]', dynamic_smem: 'int', args: 'tuple[str, ...]')"),
    'kernelscope.runner.plan.ConcretePlan': (
        (True, False, False, (('launches', 0, True, True), ('scratch', 0, True, True), ('scalars', 0, True, True))),
        _kernelscope_runner_plan_ConcretePlan,
        "ConcretePlan(launches: 'tuple', scratch: 'tuple', scalars: 'dict')"),
    'kernelscope.runner.plan.LaunchPlan': (
        (True, False, False, (('launches', 0, True, True), ('scratch', 1, True, True), ('scalars', 1, True, True), ('origin', 1, True, True))),
        _kernelscope_runner_plan_LaunchPlan,
        "LaunchPlan(launches: 'tuple', scratch: 'tuple' = (), scalars: 'tuple' = (), origin: 'str' = 'problem')"),
    'kernelscope.runner.plan.LaunchShape': (
        (True, False, False, (('number', 0, True, True), ('kernel', 0, True, True), ('grid', 0, True, True), ('block', 0, True, True), ('dynamic_smem', 0, True, True), ('missing', 0, True, True))),
        _kernelscope_runner_plan_LaunchShape,
        None),
    'kernelscope.runner.plan.PlanScalar': (
        (True, False, False, (('name', 0, True, True), ('dtype', 0, True, True), ('value', 0, True, True))),
        _kernelscope_runner_plan_PlanScalar,
        "PlanScalar(name: 'str', dtype: 'str', value: 'object')"),
    'kernelscope.runner.plan.PlannedLaunch': (
        (True, False, False, (('kernel', 0, True, True), ('grid', 0, True, True), ('block', 0, True, True), ('dynamic_smem', 0, True, True), ('args', 0, True, True))),
        _kernelscope_runner_plan_PlannedLaunch,
        "PlannedLaunch(kernel: 'str', grid: 'tuple', block: 'tuple', dynamic_smem: 'object', args: 'tuple')"),
    'kernelscope.runner.spec.ArraySpec': (
        (True, False, False, (('name', 0, True, True), ('dtype', 0, True, True), ('shape', 0, True, True), ('distribution', 1, True, True), ('rtol', 1, True, True), ('atol', 1, True, True))),
        _kernelscope_runner_spec_ArraySpec,
        "ArraySpec(name: 'str', dtype: 'str', shape: 'tuple', distribution: 'Distribution | None' = None, rtol: 'float | None' = None, atol: 'float | None' = None)"),
    'kernelscope.runner.spec.ConcreteLaunch': (
        (True, False, False, (('grid', 0, True, True), ('block', 0, True, True), ('dynamic_smem', 0, True, True), ('args', 0, True, True), ('scratch', 1, True, True))),
        _kernelscope_runner_spec_ConcreteLaunch,
        "ConcreteLaunch(grid: 'tuple[int, int, int]', block: 'tuple[int, int, int]', dynamic_smem: 'int', args: 'tuple[str, ...]', scratch: 'tuple' = ())"),
    'kernelscope.runner.spec.ConcreteScratch': (
        (True, False, False, (('name', 0, True, True), ('dtype', 0, True, True), ('shape', 0, True, True), ('zero', 0, True, True))),
        _kernelscope_runner_spec_ConcreteScratch,
        "ConcreteScratch(name: 'str', dtype: 'str', shape: 'tuple[int, ...]', zero: 'bool')"),
    'kernelscope.runner.spec.Distribution': (
        (True, False, False, (('kind', 0, True, True), ('params', 0, True, True))),
        _kernelscope_runner_spec_Distribution,
        "Distribution(kind: 'str', params: 'tuple[float, ...]')"),
    'kernelscope.runner.spec.Implementation': (
        (True, False, False, (('file', 0, True, True), ('kernel', 0, True, True), ('strategy', 1, True, True), ('plan', 1, True, False))),
        _kernelscope_runner_spec_Implementation,
        None),
    'kernelscope.runner.spec.LaunchSpec': (
        (True, False, False, (('block', 0, True, True), ('grid', 0, True, True), ('dynamic_smem', 1, True, True), ('args', 1, True, True), ('scratch', 1, True, True))),
        _kernelscope_runner_spec_LaunchSpec,
        "LaunchSpec(block: 'tuple', grid: 'tuple', dynamic_smem: 'object' = 0, args: 'tuple' = (), scratch: 'tuple' = ())"),
    'kernelscope.runner.spec.ProblemSpec': (
        (True, False, False, (('name', 0, True, True), ('path', 0, True, True), ('sizes', 0, True, True), ('inputs', 0, True, True), ('outputs', 0, True, True), ('scalars', 0, True, True), ('launch', 0, True, True), ('reference', 0, True, True), ('rtol', 0, True, True), ('atol', 0, True, True), ('style', 1, True, True), ('description', 1, True, True), ('prompt_source', 1, True, True), ('implementations', 1, True, True), ('scratch', 1, True, True), ('flops', 1, True, True), ('flops_peak', 1, True, True), ('raw', 2, False, False))),
        _kernelscope_runner_spec_ProblemSpec,
        "ProblemSpec(name: 'str', path: 'Path', sizes: 'dict', inputs: 'tuple', outputs: 'tuple', scalars: 'tuple', launch: 'LaunchSpec', reference: 'ReferenceSpec', rtol: 'float', atol: 'float', style: 'str' = 'c', description: 'str' = '', prompt_source: 'str | None' = None, implementations: 'tuple' = (), scratch: 'tuple' = (), flops: 'object' = None, flops_peak: 'str | None' = None, raw: 'dict' = <factory>)"),
    'kernelscope.runner.spec.ReferenceSpec': (
        (True, False, False, (('python', 1, True, True), ('kernel', 1, True, True), ('arrays', 1, True, True), ('launch', 1, True, True))),
        _kernelscope_runner_spec_ReferenceSpec,
        "ReferenceSpec(python: 'str | None' = None, kernel: 'str | None' = None, arrays: 'str' = 'cupy', launch: 'LaunchSpec | None' = None)"),
    'kernelscope.runner.spec.ScalarSpec': (
        (True, False, False, (('name', 0, True, True), ('dtype', 0, True, True), ('value', 0, True, True))),
        _kernelscope_runner_spec_ScalarSpec,
        "ScalarSpec(name: 'str', dtype: 'str', value: 'object')"),
    'kernelscope.runner.spec.ScratchSpec': (
        (True, False, False, (('name', 0, True, True), ('dtype', 0, True, True), ('shape', 0, True, True), ('zero', 1, True, True))),
        _kernelscope_runner_spec_ScratchSpec,
        None),
}
