package com.statefulcvm.connectors.phala.model;

import java.util.List;

public record AppInfo(
        String id,
        String name,
        String appId,
        String kmsType,
        Integer cvmCount,
        CvmInfo currentCvm,
        List<CvmInfo> cvms,
        String createdAt) {
}
