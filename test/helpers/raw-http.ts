import { connect } from "node:net";

/**
 * Sends `text` as it is to the server at `url` (its port, on 127.0.0.1) and reads the answer until
 * the server closes the connection: for requests fetch cannot send (a repeated or empty Host,
 * `OPTIONS *`, an `Expect`, CONNECT). `head` is in lower case.
 */
export function rawRequest(url: string, text: string): Promise<{ status: number; head: string; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(text));
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const [head = "", body = ""] = Buffer.concat(chunks).toString("utf8").split("\r\n\r\n");
      resolve({ status: Number(head.split(" ")[1]), head: head.toLowerCase(), body });
    });
  });
}
