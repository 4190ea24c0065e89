#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Validates a ParaView series: a .pvd collection and every .vtu file it references.

usage: check_vtk_series.py SERIES.pvd [--frames N] [--min-frames N]

Checks that every file is well-formed VTK XML; that the collection lists existing files with
non-decreasing time steps; that each UnstructuredGrid's arrays agree with its NumberOfPoints and
NumberOfCells (points, point data, cell data, connectivity, offsets, types); that connectivity
indices are valid points; and that every floating-point value is finite. Reads ASCII and inline
base64 ("binary", uncompressed, UInt32 or UInt64 headers) data arrays. Exits 0 and prints a
summary when the series is valid; otherwise prints the problems and exits 1. Uses only the
Python standard library.
"""

import argparse
import base64
import math
import os
import struct
import sys
import xml.etree.ElementTree as ET

TYPES = {
    "Int8": "b", "UInt8": "B", "Int16": "h", "UInt16": "H", "Int32": "i", "UInt32": "I",
    "Int64": "q", "UInt64": "Q", "Float32": "f", "Float64": "d",
}
ORDERS = {"LittleEndian": "<", "BigEndian": ">"}
# Number of points of the fixed-size VTK cell types this project writes or may write.
CELL_SIZES = {1: 1, 3: 2, 5: 3, 9: 4, 10: 4, 12: 8, 13: 6, 14: 5, 24: 10}


class Invalid(Exception):
    pass


def read_xml(path):
    try:
        return ET.parse(path).getroot()
    except ET.ParseError as e:
        raise Invalid(f"{path}: not well-formed XML: {e}")
    except OSError as e:
        raise Invalid(f"{path}: cannot read: {e}")


def decode(array, where, order, header):
    """The values of a <DataArray> as a list of numbers."""
    kind = array.get("type")
    if kind not in TYPES:
        raise Invalid(f"{where}: unknown DataArray type {kind!r}")
    code = TYPES[kind]
    fmt = array.get("format", "ascii")
    text = array.text or ""
    if fmt == "ascii":
        try:
            if kind.startswith("Float"):
                return [float(t) for t in text.split()]
            return [int(t) for t in text.split()]
        except ValueError as e:
            raise Invalid(f"{where}: bad ASCII value: {e}")
    if fmt != "binary":
        raise Invalid(f"{where}: format {fmt!r} is not supported by this checker")
    try:
        raw = base64.b64decode("".join(text.split()), validate=True)
    except ValueError as e:
        raise Invalid(f"{where}: bad base64 data: {e}")
    size = struct.calcsize(header)
    if len(raw) < size:
        raise Invalid(f"{where}: binary data shorter than its {size}-byte header")
    (count,) = struct.unpack(order + header, raw[:size])
    body = raw[size:]
    if count != len(body):
        raise Invalid(f"{where}: binary header says {count} bytes, the data has {len(body)}")
    width = struct.calcsize(code)
    if count % width:
        raise Invalid(f"{where}: {count} bytes is not a whole number of {kind} values")
    return list(struct.unpack(f"{order}{count // width}{code}", body))


def arrays(parent, where, order, header):
    """{Name: (NumberOfComponents, values)} of the DataArrays directly below `parent`."""
    result = {}
    if parent is None:
        return result
    for i, array in enumerate(parent.findall("DataArray")):
        name = array.get("Name") or f"#{i}"
        here = f"{where} {parent.tag}/{name}"
        try:
            components = int(array.get("NumberOfComponents", "1"))
        except ValueError:
            raise Invalid(f"{here}: NumberOfComponents is not a number")
        values = decode(array, here, order, header)
        if array.get("type", "").startswith("Float"):
            bad = [v for v in values if not math.isfinite(v)]
            if bad:
                raise Invalid(f"{here}: {len(bad)} non-finite values (first: {bad[0]})")
        result[name] = (components, values)
    return result


def check_vtu(path):
    """Checks one UnstructuredGrid file; returns (points, cells)."""
    root = read_xml(path)
    if root.tag != "VTKFile" or root.get("type") != "UnstructuredGrid":
        raise Invalid(f"{path}: not a VTK UnstructuredGrid file")
    if root.get("compressor"):
        raise Invalid(f"{path}: compressed data is not supported by this checker")
    order = ORDERS.get(root.get("byte_order", "LittleEndian"))
    if order is None:
        raise Invalid(f"{path}: unknown byte_order {root.get('byte_order')!r}")
    header = {"UInt32": "I", "UInt64": "Q"}.get(root.get("header_type", "UInt32"))
    if header is None:
        raise Invalid(f"{path}: unknown header_type {root.get('header_type')!r}")
    grid = root.find("UnstructuredGrid")
    if grid is None:
        raise Invalid(f"{path}: no <UnstructuredGrid>")
    arrays(grid.find("FieldData"), path, order, header)
    pieces = grid.findall("Piece")
    if len(pieces) != 1:
        raise Invalid(f"{path}: expected one <Piece>, found {len(pieces)}")
    piece = pieces[0]
    try:
        n = int(piece.get("NumberOfPoints"))
        m = int(piece.get("NumberOfCells"))
    except (TypeError, ValueError):
        raise Invalid(f"{path}: <Piece> needs integer NumberOfPoints and NumberOfCells")

    points = arrays(piece.find("Points"), path, order, header)
    if len(points) != 1:
        raise Invalid(f"{path}: <Points> must hold one DataArray, found {len(points)}")
    ((components, values),) = points.values()
    if components != 3 or len(values) != 3 * n:
        raise Invalid(f"{path}: <Points> has {len(values)} values in {components} components "
                      f"for NumberOfPoints = {n}")
    for tag, count in (("PointData", n), ("CellData", m)):
        for name, (components, values) in arrays(piece.find(tag), path, order, header).items():
            if len(values) != components * count:
                raise Invalid(f"{path}: {tag}/{name} has {len(values)} values, expected "
                              f"{components} × {count}")

    cells = arrays(piece.find("Cells"), path, order, header)
    for name in ("connectivity", "offsets", "types"):
        if name not in cells:
            raise Invalid(f"{path}: <Cells> lacks the {name} array")
    connectivity = cells["connectivity"][1]
    offsets = cells["offsets"][1]
    types = cells["types"][1]
    if len(offsets) != m or len(types) != m:
        raise Invalid(f"{path}: {len(offsets)} offsets and {len(types)} types for "
                      f"NumberOfCells = {m}")
    previous = 0
    for c, (offset, kind) in enumerate(zip(offsets, types)):
        if offset < previous:
            raise Invalid(f"{path}: offsets decrease at cell {c}")
        if kind in CELL_SIZES and offset - previous != CELL_SIZES[kind]:
            raise Invalid(f"{path}: cell {c} of type {kind} has {offset - previous} points, "
                          f"expected {CELL_SIZES[kind]}")
        previous = offset
    if previous != len(connectivity):
        raise Invalid(f"{path}: the last offset is {previous}, connectivity has "
                      f"{len(connectivity)} entries")
    bad = [i for i in connectivity if not 0 <= i < n]
    if bad:
        raise Invalid(f"{path}: connectivity refers to point {bad[0]}, outside 0…{n - 1}")
    return n, m


def check_series(pvd, frames=None, min_frames=1):
    root = read_xml(pvd)
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        raise Invalid(f"{pvd}: not a VTK Collection (.pvd) file")
    collection = root.find("Collection")
    if collection is None:
        raise Invalid(f"{pvd}: no <Collection>")
    datasets = collection.findall("DataSet")
    if frames is not None and len(datasets) != frames:
        raise Invalid(f"{pvd}: {len(datasets)} frames, expected {frames}")
    if len(datasets) < min_frames:
        raise Invalid(f"{pvd}: {len(datasets)} frames, expected at least {min_frames}")
    folder = os.path.dirname(os.path.abspath(pvd))
    times = []
    shape = None
    for i, dataset in enumerate(datasets):
        name = dataset.get("file")
        if not name:
            raise Invalid(f"{pvd}: DataSet {i} has no file attribute")
        if os.path.isabs(name):
            raise Invalid(f"{pvd}: DataSet {i} names an absolute path {name!r}")
        try:
            time = float(dataset.get("timestep", "0"))
        except ValueError:
            raise Invalid(f"{pvd}: DataSet {i} has a timestep that is not a number")
        if not math.isfinite(time) or (times and time < times[-1]):
            raise Invalid(f"{pvd}: DataSet {i} ({name}) has time {time} after {times[-1:]}")
        times.append(time)
        path = os.path.join(folder, name)
        if not os.path.isfile(path):
            raise Invalid(f"{pvd}: DataSet {i} refers to {name}, which does not exist")
        this = check_vtu(path)
        if shape is not None and this != shape:
            raise Invalid(f"{path}: {this[0]} points and {this[1]} cells, the first frame has "
                          f"{shape[0]} and {shape[1]}")
        shape = this
    return len(datasets), shape, times


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pvd", help="the series' .pvd file")
    parser.add_argument("--frames", type=int, help="expected number of frames")
    parser.add_argument("--min-frames", type=int, default=1, help="at least this many frames")
    args = parser.parse_args()
    try:
        count, shape, times = check_series(args.pvd, args.frames, args.min_frames)
    except Invalid as e:
        print(f"check_vtk_series: {e}", file=sys.stderr)
        return 1
    if count == 0:
        print(f"ok: {args.pvd}: no frames")
    else:
        print(f"ok: {args.pvd}: {count} frames, {shape[0]} points, {shape[1]} cells, "
              f"t = {times[0]:g} … {times[-1]:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
