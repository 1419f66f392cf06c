"""The adapter-neutral table service: store, tables per channel, outboxes. No Discord here."""
