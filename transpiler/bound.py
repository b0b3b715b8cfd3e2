"""A jitted method bound to an instance: what ``obj.method`` gives for a ``@jit`` method
(transpiler.api.JitFunction.__get__). Calls go to the JitFunction with ``obj`` as ``self``."""
from .registry import register


class BoundJitFunction:
    """A :class:`JitFunction` bound to an instance (what ``obj.method`` gives)."""

    def __init__(self, jit_function, obj):
        self._jit = jit_function
        self.__self__ = obj
        function = jit_function.python_function
        self.__func__ = function
        # What a bound method shows: the function's name, doc and signature without self.
        self.__name__ = function.__name__
        self.__qualname__ = function.__qualname__
        self.__doc__ = function.__doc__
        self.__module__ = function.__module__
        self.__wrapped__ = function.__get__(obj, type(obj))
        params = list(jit_function._signature.parameters.values())[1:]
        self.__signature__ = jit_function._signature.replace(parameters=params)

    def __repr__(self):
        return f"<bound graphjit function {self.__qualname__} of {self.__self__!r}>"

    def __eq__(self, other):
        return isinstance(other, BoundJitFunction) and other._jit is self._jit and \
            other.__self__ is self.__self__

    def __hash__(self):
        return hash((id(self._jit), id(self.__self__)))

    def __call__(self, *args, **kwargs):
        return self._jit._call(self.__self__, args, kwargs)

    def __reduce__(self):
        from .pickling import rebuild_bound
        return (rebuild_bound, (type(self), self._jit, self.__self__))

    def source(self):
        """See :meth:`JitFunction.source`."""
        return self._jit._source_for(self.__self__)

    def ir(self):
        """See :meth:`JitFunction.ir`."""
        return self._jit._ir_for(self.__self__)

    def explain(self):
        """See :meth:`JitFunction.explain`."""
        return self._jit._explain_for(self.__self__)

    @property
    def python_function(self):
        return self._jit.python_function


register("bound_jit", BoundJitFunction)
