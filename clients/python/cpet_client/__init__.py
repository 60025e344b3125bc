"""Python client of the open CPET analysis service (standard library + requests; pandas optional)."""
from .client import OPERATIONS, CpetClient, CpetError

__all__ = ["CpetClient", "CpetError", "OPERATIONS"]
