// The wire schema of `tarneeb serve`, for the browser client's JSDoc and `tsc`.
// Generated from tarneeb/server/wire/ by `python -m tarneeb.server.wire --dts`:
// do not edit; the tests check that it is current.

export const PROTOCOL_VERSION: 2;
export const MAX_ACTION_REF: 64;
export const MAX_BODY: 16384;
export const MAX_CHAT: 300;
export const MAX_DEPTH: 32;
export const MAX_FRAME: 4096;
export const MAX_NAME: 40;
export const MAX_TOKEN: 200;

/** What sort of decision an action is (the ``kind`` of an action on the server's wire). */
export type ActionKind = "card" | "bid" | "pass" | "double" | "raise" | "stand" | "redeal" | "trump";

/** The codes of error frames and error bodies (docs/protocol.md). */
export type ErrorCode = "malformed" | "too_large" | "rate_limited" | "unauthorized" | "not_started" | "not_your_turn" | "stale" | "illegal" | "duplicate" | "game_over" | "internal" | "not_found" | "conflict";

/** Where a table stands. */
export type TableStatus = "waiting" | "playing" | "finished";

/** Who sits in a seat for good: a person, or a bot the table was set up with. */
export type SeatKind = "human" | "bot";

/** The kinds of the events of a table's log. */
export type EventKind = "joined" | "invited" | "left" | "started" | "deal" | "action" | "deal_end" | "match_end" | "chat" | "takeover" | "reclaim";

/** Who took an action for a seat. */
export type ActedBy = "player" | "bot" | "timer";

export type SeatName = "south" | "east" | "north" | "west";

export type Side = "NS" | "EW";

export type StrainLetter = "C" | "D" | "H" | "S" | "NT";

export type SuitLetter = "C" | "D" | "H" | "S";

export type ThrowInReason = "all-pass" | "weak-hand" | "low-total";

export type PhaseName = "auction" | "raise" | "trump" | "play" | "scored" | "thrown-in";

export type Play = [SeatName, string];

/** An action: the engine's id (:mod:`tarneeb.actions`), its text, and its kind. */
export interface ActionJson {
  id: number;
  text: string;
  kind: ActionKind;
  /** A bid's level. */
  level?: number;
  /** A bid's strain: a suit letter, ``NT``, or null for a bid that names none. */
  strain?: StrainLetter | null;
  /** The suit of a card, or the trump a ``trump`` action names. */
  suit?: SuitLetter;
}

/** One call of the auction (a bid, pass, double, raise, stand, redeal or trump choice). */
export interface CallJson {
  seat: SeatName;
  action: ActionJson;
}

export interface AuctionJson {
  /** Every call of the deal so far, in order. */
  calls: CallJson[];
  /** Each seat's last call (South, East, North, West), the trump choice aside; null for none. */
  last: (ActionJson | null)[];
}

export interface TrickJson {
  leader: SeatName;
  /** The cards in the order played, each with its seat. */
  cards: Play[];
  /** Null for the trick under way. */
  winner: SeatName | null;
  /** The card points in the trick where the rules count card points, else null. */
  points: number | null;
}

export interface ContractJson {
  seat: SeatName;
  level: number;
  strain: StrainLetter | null;
  multiplier: number;
}

export interface ScoredJson {
  /** Per side, NS then EW. */
  points: number[];
  /** Per seat where players score alone (Syrian 400), else null. */
  seat_points: number[] | null;
  made: boolean | null;
  all_thirteen: Side | null;
}

export interface ThrownInJson {
  thrown_in: ThrowInReason;
}

export type ResultJson = ScoredJson | ThrownInJson;

export interface SetJson {
  winner: Side;
  scores: number[];
}

export interface SeatJson {
  seat: SeatName;
  name: string | null;
  kind: SeatKind;
  /** The spec of the bot in the seat, or holding it for an absent player. */
  bot: string | null;
  taken: boolean;
  connected: boolean;
  held_by_bot: boolean;
}

export interface MatchJson {
  deal_number: number;
  dealer: SeatName;
  phase: PhaseName;
  to_act: SeatName | null;
  /** This seat's own cards; empty for a spectator. */
  hand: string[];
  hand_sizes: number[];
  auction: AuctionJson;
  contract: ContractJson | null;
  trump: SuitLetter | null;
  /** The trick under way (null outside play). */
  trick: TrickJson | null;
  /** The deal's finished tricks, in order, with their winners. */
  tricks: TrickJson[];
  last_trick: TrickJson | null;
  /** Per seat. */
  tricks_taken: number[];
  /** Per side, NS then EW. */
  side_tricks: number[];
  /** Card points taken per seat where the rules count card points (Tarneeb 400), else null. */
  card_points: number[] | null;
  side_card_points: number[] | null;
  /** Each seat's own bid where every player bids alone (Syrian 400), else nulls. */
  bids: (number | null)[];
  /** This seat's legal actions; empty unless it is this seat's turn. */
  legal: ActionJson[];
  scores: number[];
  seat_scores: number[];
  target: number;
  sets: SetJson[];
  commitment: string;
  over: boolean;
  winner: Side | null;
  individual: boolean;
}

export interface StateJson {
  status: TableStatus;
  seats: SeatJson[];
  version: number;
  turn_deadline: number | null;
  match: MatchJson | null;
}

export interface TableJson {
  id: string;
  status: TableStatus;
  rules: string;
  options: Record<string, unknown>;
  public: boolean;
  turn_seconds: number | null;
  seats: SeatJson[];
  scores: number[];
  created: string;
}

export interface JoinedEvent {
  seq: number;
  kind: "joined";
  seat: SeatName;
  name: string | null;
  bot: string | null;
}

/** Invites were made for these free seats (their secrets are never sent). */
export interface InvitedEvent {
  seq: number;
  kind: "invited";
  seats: SeatName[];
}

export interface LeftEvent {
  seq: number;
  kind: "left";
  seat: SeatName;
}

export interface StartedEvent {
  seq: number;
  kind: "started";
  first_dealer: SeatName;
}

export interface DealEvent {
  seq: number;
  kind: "deal";
  number: number;
  dealer: SeatName;
  commitment: string;
}

export interface ActionEvent {
  seq: number;
  kind: "action";
  seat: SeatName;
  action: ActionJson;
  by: ActedBy;
  version: number;
}

export interface DealEndEvent {
  seq: number;
  kind: "deal_end";
  number: number;
  dealer: SeatName;
  seed: string;
  commitment: string;
  contract: ContractJson | null;
  result: ScoredJson | ThrownInJson | null;
  tricks_taken: number[];
  last_trick: TrickJson | null;
  scores: number[];
  seat_scores: number[];
}

export interface MatchEndEvent {
  seq: number;
  kind: "match_end";
  winner: Side | null;
  scores: number[];
}

export interface ChatEvent {
  seq: number;
  kind: "chat";
  seat: SeatName;
  name: string;
  text: string;
}

export interface TakeoverEvent {
  seq: number;
  kind: "takeover";
  seat: SeatName;
  bot: string;
}

export interface ReclaimEvent {
  seq: number;
  kind: "reclaim";
  seat: SeatName;
}

export type EventJson = JoinedEvent | InvitedEvent | LeftEvent | StartedEvent | DealEvent | ActionEvent | DealEndEvent | MatchEndEvent | ChatEvent | TakeoverEvent | ReclaimEvent;

/** An action named by its id; the other fields of :class:`ActionJson`, if sent, must agree. So a client may send back a legal action exactly as the state gave it. */
export interface ActionRef {
  id: number;
  text?: string;
  kind?: ActionKind;
  level?: number;
  strain?: StrainLetter | null;
  suit?: SuitLetter;
}

export interface HelloFrame {
  type: "hello";
  protocol?: number;
  token?: string | null;
  since?: number | null;
}

export interface ActFrame {
  type: "act";
  id: string;
  version: number;
  /** The action's id (``17`` or ``{"id": 17}``); its text (``"6D"``) is still read. */
  action: number | ActionRef | string;
}

export interface ChatFrame {
  type: "chat";
  text: string;
}

export interface PingFrame {
  type: "ping";
}

export type ClientFrame = HelloFrame | ActFrame | ChatFrame | PingFrame;

export interface WelcomeFrame {
  type: "welcome";
  protocol: number;
  seat: SeatName | null;
  seq: number;
  version: number;
  table: TableJson;
  state: StateJson;
  events: EventJson[] | null;
}

export interface UpdateFrame {
  type: "update";
  seq: number;
  version: number;
  events: EventJson[];
  state: StateJson;
}

export interface AckFrame {
  type: "ack";
  id: string;
  version: number;
}

export interface ErrorFrame {
  type: "error";
  code: ErrorCode;
  message: string;
  reference: string;
  /** The ``id`` of the ``act`` it answers. */
  id?: string;
  /** Where a ``duplicate`` action took the table. */
  version?: number;
}

export interface PongFrame {
  type: "pong";
}

export type ServerFrame = WelcomeFrame | UpdateFrame | AckFrame | ErrorFrame | PongFrame;

export interface ErrorDetail {
  code: ErrorCode;
  message: string;
  /** The error's reference id: the server's log line of it names the same one. */
  reference: string;
}

export interface ErrorBody {
  error: ErrorDetail;
}

export interface PresetJson {
  name: string;
  summary: string;
}

export interface InfoBody {
  protocol: number;
  version: string;
  presets: PresetJson[];
  bots: string[];
  solver: boolean;
}

export interface RulesBody {
  name: string;
  /** The language of ``summary`` and ``reference`` (``?lang=``, else the browser's, else en). */
  lang: string;
  /** The direction that language is written in. */
  dir: "ltr" | "rtl";
  summary: string;
  options: Record<string, unknown>;
  reference: string;
}

export interface TablesBody {
  tables: TableJson[];
}

export interface CreatedBody {
  table: string;
  seat: SeatName;
  token: string | null;
  invites: Record<string, string>;
  spectate: string;
  state: TableJson;
}

export interface JoinedBody {
  seat: SeatName;
  token: string;
}

export interface DealSummaryJson {
  number: number;
  dealer: SeatName;
  text: string;
  contract: ContractJson | null;
  result: ScoredJson | ThrownInJson | null;
  seed: string;
  commitment: string;
}

export interface DealsBody {
  deals: DealSummaryJson[];
}

export interface ReplayBody {
  number: number;
  dealer: SeatName;
  text: string;
  contract: ContractJson | null;
  result: ScoredJson | ThrownInJson | null;
  seed: string;
  commitment: string;
  hands: Record<string, string[]>;
  auction: CallJson[];
  tricks: TrickJson[];
  trump: SuitLetter | null;
  /** With ``?analysis=1``: the double-dummy analysis, or null when it cannot run. */
  analysis?: Record<string, unknown> | null;
}

/** ``GET /healthz``: the process answers (liveness). */
export interface HealthBody {
  status: "ok";
}

/** ``GET /readyz``: whether the server can take players now (status 503 when not). */
export interface ReadyBody {
  status: "ready" | "not ready";
  /** Each check's outcome: ``database`` (``ok``, ``unavailable``), ``tables`` (``ok``, ``degraded``, ``unknown``). */
  checks: Record<string, string>;
}
