"""A read-only attribute worked out from the object it is read on, each time it is read, declared in one line.

```python
class Point:
    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = x, y

    norm: Derived[Point, float] = Derived(lambda point: math.hypot(point.x, point.y), "Its distance from the origin.")
```

It is what a `property` with only a getter is, for a class with several of them that differ only in what they
read: one line each instead of three, and typed (mypy reads `Point().norm` as a `float`). The annotation tells
mypy what the object is; a helper returning a `Derived[Point, ...]` does it for a family of them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, Self, TypeVar, overload

__all__ = ["Derived"]

_O = TypeVar("_O")
_T = TypeVar("_T")


class Derived(Generic[_O, _T]):
    """An attribute whose value is `read(obj)` for the object it is read on; assigning it is an `AttributeError`.

    Args:
        read: what the attribute is, given the object.
        doc: its docstring (`help()` shows it on the class).
    """

    def __init__(self, read: Callable[[_O], _T], doc: str | None = None) -> None:
        self._read = read
        self.__doc__ = doc
        self._name = "attribute"

    def __set_name__(self, owner: type[Any], name: str) -> None:
        self._name = name

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> Self: ...

    @overload
    def __get__(self, obj: _O, owner: type[Any]) -> _T: ...

    def __get__(self, obj: _O | None, owner: type[Any]) -> _T | Self:
        return self if obj is None else self._read(obj)

    def __set__(self, obj: _O, value: object) -> None:
        # Read-only, as a property without a setter is.
        raise AttributeError(f"{self._name} is read-only")
