/**
 * Version of the index and of the reducer state in it. An index of another version fails the schema and the
 * file is read again from the start. 2: line numbers and the turn's tool calls. 3: no message text (the current
 * message is continued from its sync hash and Markdown fence), bounded item texts. 4: the prompt's marks and the
 * newest entrypoint (who is at the keyboard). 5: the sync hash is two multiply-xor lanes (an index of 4 holds
 * polynomial hashes, which a message continued from it would not match).
 */
export const INDEX_VERSION = 5;
