"""A derived attribute: read from its object at each read, refused on assignment, documented on the class."""

from __future__ import annotations

import pytest

from hintgate.derived import Derived


class _Box:
    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height

    area: Derived[_Box, int] = Derived(lambda box: box.width * box.height, "How much it covers.")


def test_a_derived_attribute_is_worked_out_anew_from_its_object_at_each_read() -> None:
    box = _Box(2, 3)
    assert box.area == 6
    box.width = 5
    assert box.area == 15


def test_a_derived_attribute_cannot_be_assigned_and_says_which_it_is() -> None:
    box = _Box(2, 3)
    with pytest.raises(AttributeError, match="area is read-only"):
        box.area = 7
    assert box.area == 6


def test_read_on_the_class_a_derived_attribute_is_itself_with_its_docstring() -> None:
    assert isinstance(_Box.area, Derived)
    assert _Box.area.__doc__ == "How much it covers."
