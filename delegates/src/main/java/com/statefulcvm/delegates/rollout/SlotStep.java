package com.statefulcvm.delegates.rollout;

import com.statefulcvm.connectors.phala.model.CvmInfo;
import com.statefulcvm.fleet.ReplicaSetSpec;

record SlotStep(ReplicaSetSpec spec, String slot, CvmInfo cvm) {
}
