package com.statefulcvm.delegates.support;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;

public record SlotStep(ReplicaSetSpec spec, String slot, CvmInfo cvm) {
}
