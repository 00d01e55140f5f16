// The wire schema of `tarneeb serve`, for the browser client's JSDoc and `tsc`.
// Generated from tarneeb/server/wire/ by `python -m tarneeb.server.wire --dts`:
// do not edit; the tests check that it is current.

export const PROTOCOL_VERSION: 3;
export const MAX_ACTION_REF: 64;
export const MAX_BODY: 16384;
export const MAX_CHAT: 300;
export const MAX_CLAIMS: 50;
export const MAX_DEPTH: 32;
export const MAX_EVENT_SETS: 99;
export const MAX_FRAME: 4096;
export const MAX_NAME: 40;
export const MAX_PAIRS: 32;
export const MAX_SEAT_LOOKUPS: 20;
export const MAX_TOKEN: 200;

/** What sort of decision an action is (the ``kind`` of an action on the server's wire). */
export type ActionKind = "card" | "bid" | "pass" | "double" | "raise" | "stand" | "redeal" | "trump";

/** The codes of error frames and error bodies (docs/protocol.md). */
export type ErrorCode = "malformed" | "too_large" | "rate_limited" | "unauthorized" | "not_started" | "not_your_turn" | "stale" | "illegal" | "duplicate" | "game_over" | "internal" | "not_found" | "conflict" | "forbidden";

/** Where a table stands. */
export type TableStatus = "waiting" | "playing" | "finished";

/** Who sits in a seat for good: a person, or a bot the table was set up with. */
export type SeatKind = "human" | "bot";

/** The kinds of the events of a table's log. */
export type EventKind = "joined" | "invited" | "left" | "started" | "deal" | "action" | "deal_end" | "match_end" | "chat" | "takeover" | "reclaim" | "seat_link" | "moved" | "rematch_vote" | "rematch";

/** Who took an action for a seat. */
export type ActedBy = "player" | "bot" | "timer";

export type SeatName = "south" | "east" | "north" | "west";

export type Side = "NS" | "EW";

export type StrainLetter = "C" | "D" | "H" | "S" | "NT";

export type SuitLetter = "C" | "D" | "H" | "S";

export type ThrowInReason = "all-pass" | "weak-hand" | "low-total";

export type Level = "easy" | "medium" | "hard" | "expert";

export type Reaction = "thumbs-up" | "clap" | "laugh" | "wow" | "sad" | "oops" | "good-luck" | "well-played" | "thanks" | "sorry" | "hurry-up" | "good-game";

export type Unit = "tricks" | "points";

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
  /** The level of the bot in the seat or holding it (``easy`` .. ``expert``), or null for another bot or none: a client names a bot seat from its seat and level, in its words. */
  level: Level | null;
  /** A free seat kept for the holder of its invite: nobody else may take it. */
  reserved: boolean;
  /** While a seated player is away: the server's Unix time at which a bot takes the seat over (compare with the state's ``server_time``); null otherwise. */
  away_deadline: number | null;
}

/** How far a contract is: ``{"side": "NS", "taken": 5, "needed": 8}`` is "N-S 5 of 8". */
export interface ProgressJson {
  /** The declarer, or the bidder where every player bids alone. */
  seat: SeatName;
  side: Side;
  /** Tricks (or card points, ``unit``) the declaring side, or the bidder, has taken. */
  taken: number;
  /** What the contract, or the bid, needs. */
  needed: number;
  unit: Unit;
}

/** One finished deal on the score sheet. */
export interface SheetRowJson {
  number: number;
  /** The set the deal belongs to (from 1; always 1 where sets are not counted). */
  set: number;
  dealer: SeatName;
  contract: ContractJson | null;
  /** Each player's own bid where every player bids alone (Syrian 400), else nulls. */
  bids: (number | null)[];
  /** Tricks taken per seat. */
  tricks: number[];
  side_tricks: number[];
  /** Card points taken per side where the rules count them (Tarneeb 400), else null. */
  card_points: number[] | null;
  result: ScoredJson | ThrownInJson | null;
  /** The running scores of the set after the deal, per side. */
  scores: number[];
  /** ... and per seat (the players' own where they score alone). */
  seat_scores: number[];
}

/** After the match: who wants a rematch (same seats and rules, new deals). */
export interface RematchJson {
  /** Per seat: true, false, or null for not yet (a bot seat always says true). */
  votes: (boolean | null)[];
  /** The rematch's table once every player agreed; your seat token holds your seat there. */
  table: string | null;
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
  /** How far the contract is (one entry), or each player's bid (four); empty before. */
  progress: ProgressJson[];
  /** Whether the contract's trump is still to be named (a bid that names no suit, before the declarer names it); ``trump`` is the contract's suit as soon as the bid names one. */
  trump_pending: boolean;
  /** The set under way (from 1). */
  set_number: number;
  /** Whether the match is played in sets (``sets`` of the rules above 1). */
  sets_counted: boolean;
}

export interface StateJson {
  status: TableStatus;
  seats: SeatJson[];
  version: number;
  turn_deadline: number | null;
  /** The server's Unix time when it built the state, for the deadlines in it. */
  server_time: number;
  match: MatchJson | null;
  /** Null until the match is over. */
  rematch: RematchJson | null;
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
  /** Whether a seat may ask for a hint (the host's choice at creation). */
  hints: boolean;
  /** The options that differ from the preset's (``{"target": 31}``), shown as custom. */
  custom: Record<string, unknown>;
}

export interface JoinedEvent {
  seq: number;
  kind: "joined";
  seat: SeatName;
  name: string | null;
  bot: string | null;
  /** The bot's level, if its spec is one. */
  level: Level | null;
}

/** Invites were made for these free seats (their secrets are never sent). */
export interface InvitedEvent {
  seq: number;
  kind: "invited";
  seats: SeatName[];
  /** Whether the invites keep their seats (true since protocol 3). */
  reserved: boolean;
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
  /** The deal's row of the score sheet. */
  row: SheetRowJson;
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
  level: Level | null;
}

export interface ReclaimEvent {
  seq: number;
  kind: "reclaim";
  seat: SeatName;
}

/** A seat link was made for the seat (an earlier one of the seat no longer works). */
export interface SeatLinkEvent {
  seq: number;
  kind: "seat_link";
  seat: SeatName;
}

/** The seat's player moved to another device by its seat link (the old token is void). */
export interface MovedEvent {
  seq: number;
  kind: "moved";
  seat: SeatName;
}

export interface RematchVoteEvent {
  seq: number;
  kind: "rematch_vote";
  seat: SeatName;
  vote: boolean;
}

/** Every player wants a rematch: it is table ``table`` (each seat token holds its seat). */
export interface RematchEvent {
  seq: number;
  kind: "rematch";
  table: string;
}

export type EventJson = JoinedEvent | InvitedEvent | LeftEvent | StartedEvent | DealEvent | ActionEvent | DealEndEvent | MatchEndEvent | ChatEvent | TakeoverEvent | ReclaimEvent | SeatLinkEvent | MovedEvent | RematchVoteEvent | RematchEvent;

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

/** Ask what the bot would do in your seat now (your turn, at a table with hints). */
export interface HintFrame {
  type: "hint";
}

export interface ReactFrame {
  type: "react";
  reaction: Reaction;
}

/** After the match: whether you want a rematch. */
export interface RematchFrame {
  type: "rematch";
  vote: boolean;
}

export type ClientFrame = HelloFrame | ActFrame | ChatFrame | PingFrame | HintFrame | ReactFrame | RematchFrame;

export interface WelcomeFrame {
  type: "welcome";
  protocol: number;
  seat: SeatName | null;
  seq: number;
  version: number;
  table: TableJson;
  state: StateJson;
  events: EventJson[] | null;
  /** The score sheet: every finished deal of the match (each ``deal_end`` adds its row). */
  sheet: SheetRowJson[];
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

export interface CardArg {
  card: string;
}

export interface SuitArg {
  suit: SuitLetter;
}

export interface StrainArg {
  strain: StrainLetter;
}

/** A reason inside a reason: its arguments are of :data:`ReasonArg` too. */
export interface InnerReasonJson {
  key: string | null;
  args: Record<string, unknown>;
  text: string;
}

export type ReasonArg = string | number | CardArg | SuitArg | StrainArg | InnerReasonJson;

/** Why: a message of the catalogue (``reason.NAME``) and its arguments. */
export interface ReasonJson {
  /** The catalogue key; null for a reason that is only its text, the same in every language. */
  key: string | null;
  args: Record<string, ReasonArg>;
  /** The reason in English (what to show where the client lacks the key). */
  text: string;
}

/** The answer to ``hint``, to the asker only: what the bot would do, and why. */
export interface HintAnswerFrame {
  type: "hint";
  /** The state version it is for (stale once the table moved on). */
  version: number;
  action: ActionJson;
  reason: ReasonJson | null;
}

/** A seat's quick reaction, to every connection of the table (not kept in the log). */
export interface ReactionFrame {
  type: "reaction";
  seat: SeatName;
  reaction: Reaction;
}

/** The server closes this socket on purpose: ``moved``, the seat went to another device. */
export interface ByeFrame {
  type: "bye";
  reason: "moved";
}

export type ServerFrame = WelcomeFrame | UpdateFrame | AckFrame | ErrorFrame | PongFrame | HintAnswerFrame | ReactionFrame | ByeFrame;

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
  /** The bot levels to fill seats with (``level`` of ``start``, ``bot:LEVEL`` of a seat). */
  levels: Level[];
  reactions: Reaction[];
}

export interface RulesBody {
  name: string;
  /** The language of ``summary`` and ``reference`` (``?lang=``, else the browser's, else en). */
  lang: string;
  /** The direction that language is written in. */
  dir: "ltr" | "rtl";
  summary: string;
  options: Record<string, unknown>;
  /** Every option and its value, as ``tarneeb rules NAME`` prints it: for whoever sets rules up. */
  reference: string;
  /** How to play, for players: the summary and how the game goes in plain words, no option names. */
  howto: string;
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

/** ``POST .../invite``: one invite for these free seats; its holder takes one of them. */
export interface InviteBody {
  seats: SeatName[];
  link: string;
}

/** ``POST .../seat-link``: a link that moves your seat to another device (once). */
export interface SeatLinkBody {
  seat: SeatName;
  /** ``/t/ID#claim=SECRET``: the secret is in the fragment, which no server logs. */
  link: string;
}

export interface MySeatJson {
  seat: SeatName;
  table: TableJson;
  /** Whether it is this seat's turn. */
  to_act: boolean;
}

/** ``POST /api/seats``: the tables still running where these tokens hold a seat. */
export interface MySeatsBody {
  seats: MySeatJson[];
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

/** The kinds of event (the core's tournaments, :mod:`tarneeb.competitions`). */
export type EventFormat = "king-of-the-table" | "sets-match" | "knockout";

/** Where an event stands: pairs register, then sets are played, then it is over. */
export type EventStatus = "registering" | "running" | "finished";

export type SetStatus = "waiting" | "playing" | "finished";

export interface EventMemberJson {
  name: string;
  /** The bot spec of a bot member, null for a player. */
  bot: string | null;
}

export interface EventPairJson {
  /** The pair's id in the event (``p1``, ``p2``, ... in the order they registered). */
  id: string;
  name: string;
  /** Two members: at a set's table the first sits South (North-South) or East, the second opposite. */
  members: EventMemberJson[];
  /** The pair's place in the seeding: its order of registration, from 1. */
  seed: number;
}

export interface EventSetJson {
  /** The set's number from 1; 0 for a knock-out's bye (no set is played). */
  number: number;
  /** A knock-out's round, from 1 (the last is the final); null for the other kinds. */
  round: number | null;
  /** The pair at North-South (null until a knock-out knows it). */
  ns: string | null;
  ew: string | null;
  /** The table the set is played at, once it is seated (``/t/{table}`` watches it). */
  table: string | null;
  status: SetStatus;
  winner: string | null;
  /** North-South's and East-West's scores when the set ended. */
  scores: number[] | null;
}

export interface EventStandingJson {
  rank: number;
  pair: string;
  played: number;
  won: number;
  lost: number;
  points_for: number;
  points_against: number;
  streak: number;
  best_streak: number;
  at_table: boolean;
}

export interface HostedEventJson {
  id: string;
  title: string;
  kind: EventFormat;
  status: EventStatus;
  rules: string;
  /** The score that ends a set. */
  target: number;
  /** King of the table: the sets it lasts at most; a match of sets: its sets; null for a knock-out. */
  sets: number | null;
  /** King of the table: the sets in a row that end it early; null for none. */
  streak: number | null;
  /** The pairs the event takes. */
  capacity: number;
  rated: boolean;
  created: string;
  pairs: EventPairJson[];
  standings: EventStandingJson[];
  /** The sets seated or played, in order of number; a knock-out's whole bracket (byes included). */
  games: EventSetJson[];
  /** King of the table: the pairs waiting for the table, the next first. */
  queue: string[];
  /** A knock-out's number of rounds. */
  rounds: number | null;
  winner: string | null;
}

export interface EventSummaryJson {
  id: string;
  title: string;
  kind: EventFormat;
  status: EventStatus;
  rules: string;
  registered: number;
  capacity: number;
  /** Whether it is rated: signed-in players only, its results feed the ratings. */
  rated: boolean;
  created: string;
  winner: string | null;
}

export interface EventsBody {
  /** The newest events first. */
  events: EventSummaryJson[];
  /** The presets an event may be played by: those played in pairs. */
  presets: string[];
}

/** ``POST /api/events``: the event, and the host's token (to add bot pairs and start). */
export interface EventCreatedBody {
  event: HostedEventJson;
  host_token: string;
}

/** ``POST /api/events/{id}/partner``: a signed-in player's ticket for their partner, who registers the pair with it (``{"partner": TICKET}``); it lasts ten minutes. A new ticket replaces the giver's ticket of the event made before. */
export interface EventPartnerBody {
  partner: string;
  /** The giver's own seat token: it holds the giver's seats at the pair's sets. */
  token: string;
}

/** ``POST /api/events/{id}/pairs``: the pair, and a token for each member who is a player. A member's token holds that member's seat at every table of the event. */
export interface EventRegisteredBody {
  pair: string;
  tokens: (string | null)[];
  event: HostedEventJson;
}

/** What ``/ws/events/{id}`` sends: the whole event, at once and after every change. */
export interface EventFrame {
  type: "event";
  event: HostedEventJson;
}

/** A ladder: the game family a rated match belongs to. */
export type Family = "partnership" | "egyptian" | "solo";

export type RatedState = "open" | "settled" | "void";

/** A seat a browser holds as a guest: its table and the seat's token. */
export interface SeatClaimJson {
  table: string;
  token: string;
}

/** ``POST /api/players/login`` (and ``signup``): the name, the password, and the guest seats to make the account's. */
export interface SignInRequest {
  name: string;
  password: string;
  /** At most :data:`MAX_CLAIMS`. */
  seats?: SeatClaimJson[];
}

/** ``POST /api/players/signup``: as sign-in; the name must be free. */
export interface SignUpRequest {
  name: string;
  password: string;
  seats?: SeatClaimJson[];
}

/** ``POST /api/players/recover``: the recovery code resets the password. */
export interface RecoverRequest {
  name: string;
  code: string;
  password: string;
}

/** ``POST /api/players/claim``: make these guest seats the signed-in player's. */
export interface ClaimRequest {
  seats: SeatClaimJson[];
}

/** ``POST /api/players/logout``, ``queue/leave``: no field (``{}``). */
export interface EmptyRequest {
}

/** ``POST /api/players/tables``: the host's choice of rules (no bot seats). */
export interface RatedTableRequest {
  rules?: string;
  options?: Record<string, unknown>;
  turn_seconds?: number | null;
  seats?: Record<string, string>;
}

/** ``POST /api/players/tables/{id}/join``: a seat, or none for the first free one. */
export interface RatedJoinRequest {
  seat?: SeatName | null;
}

/** ``POST /api/players/queue/join``: the preset to play (``classic`` if none). */
export interface QueueJoinRequest {
  rules?: string;
}

/** ``POST /api/players/queue/bots``: the bots' spec (the server's timer bot if none). */
export interface QueueBotsRequest {
  bot?: string;
}

export interface PlayerJson {
  name: string;
}

/** ``POST /api/players/signup`` (201, with the session cookie). */
export interface SignedUpBody {
  player: PlayerJson;
  /** Shown once: it resets the password. */
  recovery_code: string;
  /** How many of the guest seats became the account's. */
  claimed: number;
}

/** ``POST /api/players/login`` (with the session cookie). */
export interface SignedInBody {
  player: PlayerJson;
  claimed: number;
}

/** ``POST /api/players/recover``: signed in, with a new recovery code (the old is void). */
export interface RecoveredBody {
  player: PlayerJson;
  recovery_code: string;
}

export interface SignedOutBody {
  signed_out: true;
}

/** ``GET /api/players/me``: the signed-in player, or null for a guest. */
export interface MeBody {
  player: PlayerJson | null;
}

export interface ClaimedBody {
  claimed: number;
}

/** A rating on one ladder: ``ordinal`` is ``mu - 3 sigma``, what the ladder orders by. */
export interface RatingJson {
  mu: number;
  sigma: number;
  ordinal: number;
  played: number;
  won: number;
}

/** A player's rating after one rated result. */
export interface RatingPointJson {
  family: Family;
  /** What was rated (``table:ID``, ``event:ID``). */
  source: string;
  at: string;
  won: boolean;
  mu: number;
  sigma: number;
  ordinal: number;
}

/** The contracts a player bid (as declarer) and made. */
export interface ContractsJson {
  bid: number;
  made: number;
}

/** One deal of a finished match, from the player's seat. */
export interface MatchDealJson {
  number: number;
  contract: ContractJson | null;
  /** Whether the contract was the player's. */
  declarer: boolean;
  made: boolean | null;
  /** The points the player's side (or they, scoring alone) took; null for a deal thrown in. */
  points: number | null;
}

/** A match a player sat at; a finished one tells its outcome too. */
export interface PlayerMatchJson {
  table: string;
  status: TableStatus;
  rules: string;
  created: string;
  seat: SeatName;
  replay: string;
  rated: RatedState | null;
  claimed: string;
  partner?: string | null;
  /** The names per seat (South, East, North, West). */
  players?: (string | null)[];
  won?: boolean | null;
  scores?: number[] | null;
  contracts?: ContractsJson;
  deals?: MatchDealJson[];
  /** The table's record download. */
  record?: string;
}

/** ``GET /api/players/profile/{name}``. */
export interface ProfileBody {
  name: string;
  /** By ladder (:class:`Family`): those the player has a rating on. */
  ratings: Record<string, RatingJson>;
  /** Oldest first, every ladder. */
  rating_history: RatingPointJson[];
  /** The latest first. */
  matches: PlayerMatchJson[];
  /** Over the finished matches listed. */
  contracts: ContractsJson;
}

export interface LeaderboardRowJson {
  mu: number;
  sigma: number;
  ordinal: number;
  played: number;
  won: number;
  rank: number;
  name: string;
}

/** ``GET /api/players/leaderboard?family=``. */
export interface LeaderboardBody {
  family: Family;
  families: Family[];
  /** Best ordinal first. */
  players: LeaderboardRowJson[];
}

export interface RatedSeatJson {
  seat: SeatName;
  /** Null for a free seat. */
  name: string | null;
}

export interface RatedTableJson {
  id: string;
  rules: string;
  /** The match's target: the preset's own or the host's. */
  target: number;
  family: Family;
  seats: RatedSeatJson[];
}

/** ``GET /api/players/tables``: the rated tables waiting for players. */
export interface RatedTablesBody {
  tables: RatedTableJson[];
}

/** ``POST /api/players/tables`` (201): the host sits South. */
export interface RatedCreatedBody {
  table: string;
  seat: SeatName;
  token: string;
  rated: true;
}

/** ``POST /api/players/tables/{id}/join``. */
export interface RatedJoinedBody {
  seat: SeatName;
  token: string;
}

/** Not in the ranked queue. */
export interface QueueIdleBody {
  state: "idle";
}

/** Waiting in the ranked queue. */
export interface QueueWaitingBody {
  state: "waiting";
  rules: string;
  /** Seconds in the queue. */
  waited: number;
  /** How far from their own ordinal the player takes the others now. */
  window: number;
  ordinal: number;
  /** The others waiting for the same rules. */
  others: number;
  bots_offered: boolean;
  /** Seconds in the queue before bots are offered. */
  bot_wait: number;
}

/** Seated by the queue: the table, seat and token (``rated`` false at a table of bots). */
export interface QueueSeatedBody {
  state: "seated";
  table: string;
  seat: SeatName;
  token: string;
  rated: boolean;
}

export type QueueBody = QueueIdleBody | QueueWaitingBody | QueueSeatedBody;
