package com.statefulcvm.simulator.cloud;

import java.util.List;
import java.util.function.Function;

/** One page of a list: the items, the total across pages, the 1-based page number and the page size. */
public record Page<T>(List<T> items, int total, int page, int pageSize) {

    public Page {
        items = List.copyOf(items);
    }

    public int pages() {
        return (total + pageSize - 1) / pageSize;
    }

    public <R> List<R> map(Function<? super T, ? extends R> mapper) {
        return items.stream().<R>map(mapper).toList();
    }

    /** The page {@code page} (1-based) of {@code all}. */
    static <T> Page<T> of(List<T> all, int page, int pageSize) {
        int total = all.size();
        int from = (int) Math.min((long) (page - 1) * pageSize, total);
        int to = Math.min(from + pageSize, total);
        return new Page<>(all.subList(from, to), total, page, pageSize);
    }
}
