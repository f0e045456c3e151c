"""``python -m msanalysis``: the command line, as the ``msanalysis`` command runs it."""

from msanalysis.cli import app

if __name__ == "__main__":  # not when a test collects the package's modules
    app(prog_name="msanalysis")
