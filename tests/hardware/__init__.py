"""Tests of the hardware files: the OpenSCAD models render to sound meshes, the diagrams
parse."""
