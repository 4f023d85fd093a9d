package com.statefulcvm.connectors.phala.model;

import java.util.List;

/** One page of revisions, newest first. */
public record RevisionPage(List<Revision> revisions, Integer total, Integer page, Integer pageSize, Integer totalPages) {
}
