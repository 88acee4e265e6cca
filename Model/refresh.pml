/*
 * The SessionKit refresh protocol, as a Promela model for spin.
 *
 * docs/PROTOCOL.md describes the protocol and this model: what each part
 * stands for, the abstractions, the bounds and the results. Model/run checks
 * it. Every transition names the Swift function it stands for.
 *
 * Abstractions (docs/PROTOCOL.md, "The model"):
 * - A refresh token is a small integer. The family's first token is 1 and
 *   the successor of token t is t + 1, so an older token is a smaller one.
 * - The store is one record (token, sequence). Token 0 is a record without a
 *   session (the store was cleared); it still carries its sequence.
 * - Time is not modelled. The server's grace is the variable graceFrom: the
 *   rotated-out tokens t with graceFrom <= t < srvActive are within their
 *   grace. "Time passes" moves graceFrom on by one at any moment; tokens are
 *   rotated in order, so their graces run out in that order.
 * - An access token expiring is an event with a budget (EXPIRIES). With the
 *   other budgets this bounds the refreshes, the rotations and the state space.
 * - A request is sent and answered in one step: it reaches the server or it
 *   does not, and its answer reaches the client or it does not (A1).
 * - A process is one SessionClient. Its callers share one refresh (single
 *   flight: SessionClient.refreshSession / startFlight), so they are one
 *   refresher here.
 * - Steps a lock holder takes back to back (lock, re-read, send) are one
 *   step: nobody else can act on the store or the family in between, and a
 *   crash between them is the same as a crash before the first.
 *
 * Switches (-D on the spin command line):
 *   bounds: NCLIENTS (2..4), EXPIRIES, FAULTS, CRASHES, WFAILS,
 *     LOCK_TIMEOUTS, ENDS;
 *   ASSUME_A2: an unlocked refresh (after a lock timeout) reaches the server
 *     before anything else happens there;
 *   sabotages: SKIP_LOCK, SKIP_REREAD, PERSIST_NOTHING, TRANSIENT_ENDS;
 *   findings (the client at this writing): REFRESH_UNSAVED (refresh from a
 *     session whose save failed: rule G off), BLIND_PERSIST (after a refresh
 *     without the lock, save without lock or re-read);
 *   model self-checks: SILENT_END, LOCK_SURVIVES_CRASH.
 */

#ifndef NCLIENTS
#define NCLIENTS 3
#endif
#ifndef EXPIRIES
#define EXPIRIES 3      /* access-token expiries (refresh triggers) in a run */
#endif
#ifndef FAULTS
#define FAULTS 1        /* network faults: a request lost, or an answer lost or garbled */
#endif
#ifndef CRASHES
#define CRASHES 1       /* process kills, each followed by a relaunch */
#endif
#ifndef WFAILS
#define WFAILS 1        /* store writes that fail (FileSessionStore.save throws) */
#endif
#ifndef LOCK_TIMEOUTS
#define LOCK_TIMEOUTS 0 /* lock waits that run out (rule D) */
#endif
#ifndef ENDS
#define ENDS 1          /* genuine ends of the family (sign-out elsewhere) */
#endif

#if NCLIENTS < 2 || NCLIENTS > 4
#error "NCLIENTS must be 2, 3 or 4"
#endif

/* The family on the server (sessions.revoked_at / revoked_reason). */
#define LIVE   0
#define ENDED  1   /* signed out elsewhere, or expired: refresh_token_not_found, session_expired */
#define REUSED 2   /* revoked by reuse detection: refresh_token_already_used */

/* A refresh attempt's outcome, as ResponseClassifier.refreshOutcome reads it. */
#define O_OK        1   /* 2xx with an access and a refresh token */
#define O_TRANSIENT 2   /* no answer, 5xx, 429, HTML 401/403, unknown 4xx, undecodable body */
#define O_END       3   /* a recognised end: refresh_token_not_found, session_expired, ... */
#define O_USED      4   /* refresh_token_already_used */

/* ---- Server: AuthStore, the sessions and refresh_tokens rows of one family ---- */
byte srvActive = 1;    /* sessions.active_token_hash: the one token that may rotate next */
byte graceFrom = 1;    /* rotated-out tokens >= graceFrom are within their grace */
byte fam = LIVE;

/* ---- The shared store: FileSessionStore (session.json and session.lock) ---- */
byte stTok = 1;        /* the stored record's refresh token; 0: no session stored */
byte stSeq = 1;        /* the stored record's sequence */
byte lockOwner = 0;    /* the flock holder: client index + 1; 0 when free */

/* ---- The processes (each SessionClient's own state is local to Client) ---- */
bool kill[NCLIENTS];   /* the Killer chose this process */

/* ---- Ghosts for the properties, and the budgets ---- */
byte nreports = 0;     /* ends reported by any process, ever */
byte signedIn = 0;     /* processes that show a session: signed in, no end reported */
byte expiries = EXPIRIES;
byte faults = FAULTS;
byte crashes = CRASHES;
byte wfails = WFAILS;
byte timeouts = LOCK_TIMEOUTS;
byte ends = ENDS;

/* P3: the server's active token can be had from the store: it is stored, or
   the stored token is its parent, which the grace or successor recovery
   exchanges for it (AuthStore.rotate). */
#define RECOVERABLE (fam != LIVE || stTok == srvActive || stTok + 1 == srvActive)

/* 1. No process reports the session ended while the server holds the family. */
ltl p1 { [] ((nreports > 0) -> (fam != LIVE)) }
/* 2. No reuse detection is caused by the clients alone. */
ltl p2 { [] (fam != REUSED) }
/* 3. The active refresh token is always recoverable from the store. */
ltl p3 { [] RECOVERABLE }
/* 4. After a genuine end, every process eventually reports it (once: an assertion). */
ltl p4 { [] ((fam == ENDED) -> <> (signedIn == 0)) }
/* 5. No lock is held forever, a crashed holder's included. */
ltl p5 { [] ((lockOwner != 0) -> <> (lockOwner == 0)) }

/*
 * AuthStore.rotate(refreshToken:now:policy:), one transaction, for the
 * presented token p. Sets outcome and, on success, tok.
 */
inline rotate(p) {
  if
  :: fam == ENDED ->
       /* session.isRevoked (logout), or now >= notAfter: refresh_token_not_found / session_expired */
       outcome = O_END;
       printf("MSC: server: %d refused, the session has ended\n", p)
  :: fam == REUSED ->
       /* session.isRevoked with revokedReason "reuse": refresh_token_already_used */
       outcome = O_USED;
       printf("MSC: server: %d refused, refresh_token_already_used\n", p)
  :: fam == LIVE && p == srvActive ->
       /* The active token: AuthStore.issueSuccessor (outcome .rotated) */
       srvActive++; tok = srvActive; outcome = O_OK;
       printf("MSC: server: rotated %d -> %d\n", p, tok);
       assert(RECOVERABLE)                          /* P3 */
  :: fam == LIVE && p < srvActive && p >= graceFrom ->
       /* Rotated out within the grace: the same successor (.replayedWithinGrace) */
       tok = p + 1; outcome = O_OK;
       printf("MSC: server: %d within grace -> %d\n", p, tok)
  :: fam == LIVE && p < graceFrom && p + 1 == srvActive ->
       /* Grace over, successor never used: hand it over again (.recoveredUnsavedSuccessor) */
       tok = srvActive; outcome = O_OK;
       printf("MSC: server: %d recovered its unused successor %d\n", p, tok)
  :: fam == LIVE && p < graceFrom && p + 1 < srvActive ->
       /* Reuse outside the grace (.revokedOnReuse): the family is revoked */
       fam = REUSED; outcome = O_USED;
       printf("MSC: server: REUSE of %d (active %d): family revoked\n", p, srvActive);
       assert(fam != REUSED)                        /* P2: the clients alone never get here */
  fi
}

/* The process leaves signedIn: SessionClient.refreshLocked's terminal branch ->
   endSession(.expired), or adoptStoredSessionIfNewer's .signedOutElsewhere. */
inline reportEnd() {
  printf("MSC: C%d reports the session ended\n", i);
  assert(fam != LIVE);          /* P1 */
  assert(!reported);            /* P4: once */
  assert(mem != 0);
  reported = true;
  nreports++;
#ifndef SILENT_END
  shows = false; signedIn--;    /* sessionExpired (or signedOut) is published */
#endif
  mem = 0;
  pending = false;
  retry = false
}

/* adoptStoredSessionIfNewer, the branch that adopts: the store is ahead of
   what this process last saw (rule A: adoption only moves forward). */
inline adopt() {
  printf("MSC: C%d adopts the store (token %d, seq %d)\n", i, stTok, stSeq);
  mem = stTok;
  seen = stSeq;
  pending = false;
  retry = false
}

/* FileLock.acquire, through FileSessionStore.lockForRefresh: wait until the
   lock is free, or give up after the bounded wait (rule D) and go on without
   it. A wait blocks; other processes run meanwhile. */
inline acquire() {
  if
  :: lockOwner == 0 -> lockOwner = i + 1; locked = true;
       printf("MSC: C%d locks\n", i)
  :: lockOwner != 0 && timeouts > 0 -> timeouts--;
       printf("MSC: C%d gives up waiting for the lock\n", i)
  fi
}

/* FileLock.unlock. (The OS does the same when the process dies.) */
inline releaseLock() {
  if
  :: locked -> lockOwner = 0; locked = false;
       printf("MSC: C%d unlocks\n", i)
  :: else -> skip
  fi
}

/*
 * One write of the session (pending is true; mem is the record):
 * SessionClient.persistRefreshed, and the write retry (startWriteRetry /
 * retryPendingWrite), through FileSessionStore.save. Rule A: under the lock,
 * re-read, and write sequence = stored + 1, only if the store is not ahead
 * of this process; if it is, adopt the store instead (rule F).
 */
inline storeWrite() {
  if
  :: !locked ->
       /* The lock could not be had: the write stays pending, retried later. */
       printf("MSC: C%d cannot save without the lock; kept in memory\n", i)
  :: locked && stSeq > seen && stTok != 0 ->
       adopt()
  :: locked && stSeq > seen && stTok == 0 ->
       /* Cleared by a process that learned of the end: signed out elsewhere. */
       reportEnd()
  :: locked && stSeq <= seen && wfails > 0 ->
       /* FileSessionStore.save threw (all its attempts): keep the tokens in memory */
       wfails--;
       printf("MSC: C%d save of %d FAILED; kept in memory\n", i, mem)
  :: locked && stSeq <= seen ->
       /* The next sequence: SessionClient.nextSequence (max of seen and stored, + 1) */
       stTok = mem; stSeq = seen + 1; seen = stSeq; pending = false;
       printf("MSC: C%d saves (token %d, seq %d)\n", i, stTok, stSeq);
       assert(RECOVERABLE)                          /* P3 */
  fi
}

/*
 * SessionClient.sendRefresh: the request, AuthStore.rotate on the server,
 * the answer; then ResponseClassifier.refreshOutcome and the switch in
 * SessionClient.refreshLocked.
 */
inline sendAndClassify() {
  printf("MSC: C%d sends refresh token %d\n", i, mem);
  if
  :: faults > 0 ->
       /* The request never reaches the server: refused, reset, stalled, or
          a proxy's own 5xx or HTML 401. Nothing is committed. */
       faults--; outcome = O_TRANSIENT;
       printf("MSC: request LOST before the server\n")
  :: rotate(mem);
     if
     :: skip                                    /* the answer arrives */
     :: faults > 0 ->
          /* The server committed; the answer is lost or garbled (timeout,
             reset mid-response, truncated or undecodable body). */
          faults--; outcome = O_TRANSIENT; tok = 0;
          printf("MSC: answer LOST after the server committed\n")
     fi
  fi;
  if
  :: outcome == O_OK -> outcome = 0; goto persist
  :: outcome == O_TRANSIENT ->
       outcome = 0;
#ifdef TRANSIENT_ENDS
       goto terminal                            /* SABOTAGE: a transient failure ends the session */
#else
       /* Keep the session and the refresh token; back off and retry
          (RefreshStateMachine.refreshFailed -> .retry). */
       retry = true; releaseLock(); goto idle
#endif
  :: outcome == O_END || outcome == O_USED -> outcome = 0; goto terminal
  fi
}

proctype Client(byte i) {
  byte mem;          /* current?.refreshToken; 0 when signed out */
  byte seen;         /* the highest store sequence this process read or wrote */
  bool pending;      /* pendingWrite != nil: mem is not saved yet */
  bool retry;        /* a retry timer is armed after a transient failure */
  bool reported;     /* this launch reported the end */
  bool shows;        /* the app shows a session (counted in signedIn) */
  bool locked;       /* this process holds the flock */
  byte tok;          /* the refresh token an answer carried */
  byte outcome;

  /* Launch: SessionClient.restore() reads the store. */
  atomic {
    mem = stTok; seen = stSeq;
    if
    :: mem != 0 -> shows = true; signedIn++
    :: else -> skip
    fi
  }

end_launched:
  do
  :: {
idle:
end_idle:
    /* The process waits for something to do; resting here is not a deadlock. */
    do
    :: atomic {
         mem != 0 && (retry || fam != LIVE || expiries > 0) ->
         if
         :: retry ->
              /* The retry timer (after a transient failure) fires: timerFired */
              retry = false;
              printf("MSC: C%d retries\n", i)
         :: !retry && fam != LIVE ->
              /* The app keeps being used; a request is refused with 401 because
                 the server ended the session: send -> refreshSession(.rejected) */
              printf("MSC: C%d gets a 401\n", i)
         :: !retry && fam == LIVE ->
              /* The access token expired (RefreshStateMachine.isExpired), or its
                 refresh is due: validSession / timerFired -> refreshSession */
              expiries--;
              printf("MSC: C%d: access token expired\n", i)
         fi;
         /* SessionClient.performRefresh: store.lockForRefresh() */
#ifndef SKIP_LOCK
         acquire();
#endif
#ifndef REFRESH_UNSAVED
         /* Rule G: a session whose save failed is saved before it is refreshed,
            so no two rotations ever stand on one unsaved lineage. Not in the
            client at this writing (docs/PROTOCOL.md, "What the model found"). */
         if
         :: pending ->
              if
              :: !locked -> acquire()
              :: else -> skip
              fi;
              storeWrite();
              if
              :: mem == 0 -> releaseLock(); goto idle       /* signed out elsewhere */
              :: mem != 0 && pending ->
                   /* Still unsaved: a transient failure (persistenceFailed); retry later. */
                   retry = true; releaseLock(); goto idle
              :: mem != 0 && !pending -> skip               /* saved, or adopted: go on (rule E) */
              fi
         :: else -> skip
         fi
#endif
       };
       goto reread
    :: atomic {
         mem != 0 && pending && !retry ->
         /* The write retry timer: SessionClient.startWriteRetry -> retryPendingWrite */
         printf("MSC: C%d retries its save\n", i);
         acquire();
         storeWrite();
         releaseLock()
       }
    od;

reread:
    /* SessionClient.refreshLocked -> adoptStoredSessionIfNewer: another process
       may have refreshed while this one waited for the lock. */
    atomic {
#ifndef SKIP_REREAD
      if
      :: stSeq > seen && stTok == 0 ->
           reportEnd(); releaseLock(); goto idle     /* .signedOutElsewhere */
      :: stSeq > seen && stTok != 0 ->
           adopt();
           if
           :: releaseLock(); goto idle               /* .adopted, not expired */
           :: printf("MSC: C%d: adopted session expired too\n", i)
                                                     /* refresh it under this lock (rule E) */
           fi
      :: else ->                                     /* .unchanged */
           printf("MSC: C%d re-reads the store: nothing newer (token %d, seq %d)\n", i, stTok, stSeq)
      fi;
#endif
      if
      :: locked ->
           /* Under the lock nobody else rotates or writes: send at once. */
           sendAndClassify()
      :: else ->
#ifdef ASSUME_A2
           /* A2: nothing else reaches the server between an unlocked
              refresh's re-read and its request. */
           sendAndClassify()
#else
           skip                                      /* the race is open from here to the server */
#endif
      fi
    };
    atomic { sendAndClassify() };

persist:
    /* Persist (verified) first, then publish: SessionClient.persistRefreshed.
       A 2xx with both tokens is kept even if other fields are missing (rule C). */
    atomic {
      mem = tok; tok = 0;
#ifdef PERSIST_NOTHING
      printf("MSC: C%d installs %d WITHOUT saving\n", i, mem);
      releaseLock(); goto idle                        /* SABOTAGE: the refreshed session is never written */
#endif
      pending = true;
#ifdef BLIND_PERSIST
      if
      :: !locked && wfails > 0 -> wfails--
      :: !locked ->
           /* persistRefreshed after a refresh that ran without the lock: no lock,
              no re-read, sequence = last seen + 1 */
           stTok = mem; stSeq = seen + 1; seen = stSeq; pending = false;
           printf("MSC: C%d saves WITHOUT lock or re-read (token %d, seq %d)\n", i, stTok, stSeq);
           assert(RECOVERABLE)                        /* P3 */
      :: locked -> storeWrite()
      fi;
#else
      if
      :: !locked -> acquire()                         /* every write takes the lock (rule A) */
      :: else -> skip
      fi;
      storeWrite();
#endif
      releaseLock();
      goto idle
    };

terminal:
    /* .alreadyUsed / .terminal: re-read first; a newer session another process
       wrote wins over the answer (adoptStoredSessionIfNewer). */
    atomic {
      if
      :: stSeq > seen && stTok != 0 ->
           adopt();
           if
           :: releaseLock(); goto idle                /* .adopted, not expired */
           :: goto reread                             /* adopted but expired: refresh it (rule E) */
           fi
      :: stSeq > seen && stTok == 0 ->
           reportEnd(); releaseLock(); goto idle      /* .signedOutElsewhere */
      :: else ->
           /* .unchanged: SessionClient.refreshLocked -> endSession(.expired) */
           reportEnd()
      fi;
      /* endSession -> clearStoredSession -> clearIfStill: a write like any
         other, under the lock and only if the store is not ahead; the cleared
         record keeps its sequence (rule A). */
      if
      :: !locked -> acquire()
      :: else -> skip
      fi;
      if
      :: locked && stSeq <= seen && wfails > 0 -> wfails--  /* clear failed: the next launch ends it again */
      :: locked && stSeq <= seen ->
           stTok = 0; stSeq = seen + 1; seen = stSeq;
           printf("MSC: C%d clears the store (seq %d)\n", i, stSeq);
           assert(RECOVERABLE)                        /* P3 */
      :: else -> skip
      fi;
      releaseLock()
    };
    goto idle
  } unless {
    /* The process dies at any step: the OS releases its flock, its memory
       (an unsaved session included) is gone, and it is relaunched from the
       store (SessionClient.restore) in the same step, so no state between
       the two is ever seen. */
    atomic {
      kill[i] ->
      kill[i] = false;
#ifndef LOCK_SURVIVES_CRASH
      if
      :: lockOwner == i + 1 -> lockOwner = 0
      :: else -> skip
      fi;
#endif
      locked = false; tok = 0; outcome = 0;
      pending = false; retry = false; reported = false;
      if
      :: shows -> signedIn--
      :: else -> skip
      fi;
      mem = stTok;
      seen = stSeq;
      if
      :: mem != 0 -> shows = true; signedIn++
      :: else -> shows = false
      fi;
      printf("MSC: C%d KILLED; relaunched from the store (token %d, seq %d)\n", i, stTok, stSeq)
    }
  }
  od
}

/* The world around the server: time passing, and the session ending for real. */
proctype Server() {
end_server:
  do
  :: atomic {
       graceFrom < srvActive -> graceFrom++;      /* time passes: the oldest open grace runs out */
       printf("MSC: grace of %d runs out\n", graceFrom - 1)
     }
  :: atomic {
       /* Signed out elsewhere (SessionService.logout -> AuthStore.revokeSession /
          revokeSessions), or the family expired (refresh-token TTL, notAfter). */
       fam == LIVE && ends > 0 -> ends--; fam = ENDED;
       printf("MSC: the session is ended elsewhere\n")
     }
  od
}

/* Kills a process at any moment (SIGKILL, or the app killed in the background). */
#define KILL(k) :: atomic { crashes > 0 && !kill[k] -> kill[k] = true; crashes-- }
proctype Killer() {
end_killer:
  do
  KILL(0)
  KILL(1)
#if NCLIENTS >= 3
  KILL(2)
#endif
#if NCLIENTS >= 4
  KILL(3)
#endif
  od
}

init {
  byte c;
  atomic {
    for (c : 0 .. NCLIENTS - 1) {
      run Client(c)
    }
    run Server();
    run Killer()
  }
}
