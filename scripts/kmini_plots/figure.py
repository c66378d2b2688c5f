"""What every figure kind hands to the command line: a file name, the table of its numbers, and
a function that draws it. Drawing is deferred so that a figure kind with nothing to draw costs
nothing, and so that the command line alone decides where files go."""
import os

import matplotlib

matplotlib.use("Agg")  # no display on build machines and CI
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)


class Figure:
    """name: the PNG's file name without .png; table: the plotted numbers as text;
    draw: a function returning the matplotlib figure."""

    def __init__(self, name, table, draw):
        self.name = name
        self.table = table
        self.draw = draw

    def write(self, out_dir):
        """Draws the figure into out_dir/name.png and returns that path."""
        path = os.path.join(out_dir, f"{self.name}.png")
        figure = self.draw()
        try:
            # "tight" keeps a legend placed beside the axes inside the image.
            figure.savefig(path, dpi=120, bbox_inches="tight")
        finally:
            plt.close(figure)
        return path


def new_axes(width=7.0, height=5.0, columns=1):
    """A figure and its axes: one, or a tuple of columns side by side."""
    return plt.subplots(1, columns, figsize=(width, height))
