# Type stubs for PettingZoo's AEC wrappers (pettingzoo/utils/wrappers/): each
# wraps an AEC environment and is one itself.
from pettingzoo import AECEnv, ActionType, AgentID, ObsType

class BaseWrapper(AECEnv[AgentID, ObsType, ActionType]):
    env: AECEnv[AgentID, ObsType, ActionType]
    def __init__(self, env: AECEnv[AgentID, ObsType, ActionType]) -> None: ...
    @property
    def unwrapped(self) -> AECEnv[AgentID, ObsType, ActionType]: ...

class TerminateIllegalWrapper(BaseWrapper[AgentID, ObsType, ActionType]):
    def __init__(self, env: AECEnv[AgentID, ObsType, ActionType],
                 illegal_reward: float) -> None: ...

class AssertOutOfBoundsWrapper(BaseWrapper[AgentID, ObsType, ActionType]): ...

class OrderEnforcingWrapper(BaseWrapper[AgentID, ObsType, ActionType]): ...
