-- A store as a Faultline of schema version 2 (before explorations, session 10) wrote it:
-- its migrations 0 and 1 of core/store/fl-store-schema.c, one scenario. Frozen: never regenerate.
BEGIN TRANSACTION;
CREATE TABLE bench (  id             INTEGER PRIMARY KEY,  workload       TEXT NOT NULL,  config         TEXT NOT NULL,  cpus           INTEGER NOT NULL,  faults         INTEGER NOT NULL,  cycles         INTEGER NOT NULL,  faults_per_sec REAL NOT NULL,  ratio          REAL NOT NULL,  created        INTEGER NOT NULL);
CREATE TABLE bookmark (  id       INTEGER PRIMARY KEY,  run_id   INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,  step     INTEGER NOT NULL,  title    TEXT NOT NULL,  note     TEXT NOT NULL DEFAULT '',  created  INTEGER NOT NULL, updated INTEGER NOT NULL DEFAULT 0);
CREATE TABLE event (  run_id   INTEGER NOT NULL,  step     INTEGER NOT NULL,  sub      INTEGER NOT NULL,  cycle    INTEGER NOT NULL,  cpu      INTEGER NOT NULL,  loc      INTEGER NOT NULL,  kind     INTEGER NOT NULL,  xfer     INTEGER NOT NULL,  mesi     INTEGER NOT NULL,  activity INTEGER NOT NULL,  line     INTEGER NOT NULL,  obj      INTEGER NOT NULL,  val      INTEGER NOT NULL,  PRIMARY KEY (run_id, step, sub)) WITHOUT ROWID;
CREATE TABLE finding (  id       INTEGER PRIMARY KEY,  run_id   INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,  step     INTEGER NOT NULL,  cpu      INTEGER NOT NULL,  kind     TEXT NOT NULL,  message  TEXT NOT NULL);
CREATE TABLE run (  id          INTEGER PRIMARY KEY,  scenario_id INTEGER NOT NULL REFERENCES scenario (id) ON DELETE CASCADE,  config      TEXT NOT NULL,  seed        INTEGER NOT NULL,  steps       INTEGER NOT NULL DEFAULT 0,  cycles      INTEGER NOT NULL DEFAULT 0,  hash        TEXT,  findings    INTEGER NOT NULL DEFAULT 0,  verdict     TEXT,  created     INTEGER NOT NULL);
CREATE TABLE scenario (  id       INTEGER PRIMARY KEY,  name     TEXT NOT NULL,  title    TEXT NOT NULL,  tags     TEXT NOT NULL DEFAULT '',  text     TEXT NOT NULL,  created  INTEGER NOT NULL);
INSERT INTO "scenario" VALUES(1,'spf-vs-munmap','munmap races a speculative fault','race;munmap;rcu','[scenario]
title=munmap races a speculative fault
description=cpu0 has found its VMA under RCU and read its sequence count when cpu1 unmaps the whole range: the VMA is unlinked from the tree and marked with RB_CLEAR_NODE, the page tables are freed, and the VMA is handed to call_rcu. cpu0 still holds a pointer to it. Because it is inside an RCU read-side section the VMA cannot be freed yet, and the next pte_map_lock finds the page table gone: the fault retries under mmap_sem and gets SIGSEGV, as it should. With vma-free=immediate the VMA is freed at once and cpu0 reads freed memory.
expect=The speculative fault retries and falls back to the locked path (SIGSEGV: the range is gone); no findings. With vma-free=immediate: use-after-free.
tags=race;munmap;rcu
seed=1

[config]
cpus=2
fault-path=speculative

[mm]
vma=0x7f0000000000-0x7f0000004000 rw- anon
pte=0x7f0000002000 present

[cpu0]
ops=fault 0x7f0000001000 write

[cpu1]
ops=munmap 0x7f0000000000 0x4000

[schedule]
steps=cpu0 until handle_pte_fault; cpu1 until end; cpu0 until end
',1764806400);
CREATE INDEX scenario_by_name ON scenario (name);
CREATE INDEX run_by_scenario ON run (scenario_id);
CREATE INDEX finding_by_run ON finding (run_id, step);
CREATE INDEX bookmark_by_run ON bookmark (run_id, step);
CREATE INDEX bench_by_workload ON bench (workload, cpus);
COMMIT;
PRAGMA application_id = 1179407409;
PRAGMA user_version = 2;
