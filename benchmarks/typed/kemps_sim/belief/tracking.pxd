# C types for kemps_sim/belief/tracking.py, used only by `compiled_trial.py --typed` (Cython reads a .pxd beside a
# module as declarations for it). TableReader becomes a C class with typed counters; its lists stay Python lists.
# Pure Python ignores this file: tracking.py is the reference.
cimport cython

cdef class TableReader:
    cdef public int players, seat, round, read, sweeps
    cdef public object notice, _obs, _log
    cdef public list calls, swap_times, net, collectors, held, held_rank, held_of_rank, owed, discard, seen_at
    cdef public double started_at, others_changed_at
    cdef public tuple past

    cpdef void _start_round(self, int index)
    cpdef void refresh(self, obs)
    @cython.locals(sweeps=cython.int)
    cpdef void _read(self, log)
    @cython.locals(seat=cython.int, rank=cython.int, net=list, collectors=list, held=list, held_of_rank=list)
    cpdef void _swapped(self, event)
    cpdef void _forget(self, int seat)
