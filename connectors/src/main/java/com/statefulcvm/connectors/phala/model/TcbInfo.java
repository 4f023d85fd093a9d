package com.statefulcvm.connectors.phala.model;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import java.util.List;

public record TcbInfo(
        String mrtd,
        String rootfsHash,
        String rtmr0,
        String rtmr1,
        String rtmr2,
        String rtmr3,
        List<EventLogEntry> eventLog,
        @JsonDeserialize(using = JsonTextDeserializer.class) String appCompose) {
}
