# Type stubs: see ../__init__.pyi.
from pettingzoo import AECEnv as AECEnv, ParallelEnv as ParallelEnv
from pettingzoo.utils import wrappers as wrappers
