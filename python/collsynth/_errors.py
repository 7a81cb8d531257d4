"""The package's exceptions (docs/python.md, "Errors")."""


class InputError(ValueError):
    """Bad input: a file, an expression or an argument that collsynth refuses.

    The CLI's exit-2 message, split into its parts.

    Attributes
    ----------
    file : str
        The file (or ``"<args>"``, ``"<expr>"``, ``"<python>"``) the problem is in.
    item : str
        The node, link, JSON path, line or argument within it.
    problem : str
        What is wrong.
    """

    def __init__(self, message, file="", item="", problem=""):
        super().__init__(message)
        self.file = file
        self.item = item
        self.problem = problem


class CheckError(RuntimeError):
    """A schedule failed the checker where one must pass (the CLI's exit 1).

    Raised by ``Schedule.save`` when the written file does not check, and by
    ``experiments.run`` when a row's schedule was not accepted. A schedule that is merely
    loaded or verified is never an exception: its ``Verdict`` says ``ok == False``.
    """


class InternalError(RuntimeError):
    """A defect in collsynth (the CLI's exit 3): please report it with the input."""
