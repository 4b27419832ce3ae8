"""Trips from the window to a core model, counted: each call of one of the model's methods or
computed properties from outside the model is one trip (the model's calls to itself are not)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any


def count_trips(model: object) -> list[str]:
    """The names of the calls made on ``model`` from now on, one per trip, in order (clear the
    list to start counting again). The model's class is swapped for a counting subclass: the
    model itself, its state and its behaviour stay as they are."""
    trips: list[str] = []
    depth = [0]

    def enter(name: str, call: Callable[[], Any]) -> Any:
        if depth[0] == 0:
            trips.append(name)
        depth[0] += 1
        try:
            return call()
        finally:
            depth[0] -= 1

    cls = type(model)
    namespace: dict[str, Any] = {}
    for name in dir(cls):
        if name.startswith("__"):
            continue
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, property) and raw.fget is not None:
            def getter(self: Any, _get: Any = raw.fget, _name: str = name) -> Any:
                return enter(_name, lambda: _get(self))
            namespace[name] = property(getter, raw.fset)
        elif inspect.isfunction(raw):
            def method(self: Any, *args: Any, _f: Any = raw, _name: str = name, **kwargs: Any) -> Any:
                return enter(_name, lambda: _f(self, *args, **kwargs))
            namespace[name] = method
    model.__class__ = type(f"Counted{cls.__name__}", (cls,), namespace)
    return trips
