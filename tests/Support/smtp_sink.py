"""A real SMTP server on loopback for the alert tests (Debian's python3-aiosmtpd).

Each accepted message is parsed with Python's own e-mail package (an independent check of our MIME) and written
as one JSON file to --dir, atomically, so the test only ever sees complete messages.

It binds its port at once (port 0: the kernel picks a free one) and prints "BOUND <port>", but listens only when it
reads "LISTEN <delay seconds>" on stdin, then prints READY. Until then a client connecting is refused, as by a relay
that is down, and no other process can take the port: a test's "relay down, then up" never reaches someone else's.
"""
import argparse
import asyncio
import base64
import email
import email.policy
import json
import os
import socket
import ssl
import sys
import uuid

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Sink:
    """Refuses any sender or recipient whose address starts with "refused" (550), as a relay refuses a policy breach."""

    def __init__(self, directory, delay):
        self.directory = directory
        self.delay = delay

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        if address.startswith("refused"):
            return "550 5.7.1 Sender not allowed"
        envelope.mail_from = address
        envelope.mail_options.extend(mail_options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("refused"):
            return "550 5.1.1 No such user here"
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        # A slow relay (--delay): a sender killed meanwhile has sent the whole message but never hears the 250.
        if self.delay:
            await asyncio.sleep(self.delay)
        message = email.message_from_bytes(envelope.original_content or envelope.content, policy=email.policy.default)
        plain = message.get_body(("plain",))
        html = message.get_body(("html",))
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "subject": str(message["subject"]),
            "from": str(message["from"]),
            "to": str(message["to"]),
            "message_id": str(message["message-id"]),
            "content_type": message.get_content_type(),
            "text": plain.get_content() if plain is not None else None,
            "html": html.get_content() if html is not None else None,
            # Each attached file as the recipient's mail client would save it: decoded from its transfer encoding.
            "attachments": [{"file_name": part.get_filename(), "content_type": part.get_content_type(),
                             "content": base64.b64encode(part.get_payload(decode=True)).decode("ascii")}
                            for part in message.iter_attachments()],
            "headers": list(message.keys()),
            "defects": [repr(d) for d in message.defects],
            "authenticated": bool(session.authenticated),
            "tls": session.ssl is not None,
            # The client's port: messages with the same one came over one connection.
            "connection": session.peer[1],
        }
        name = uuid.uuid4().hex
        temporary = os.path.join(self.directory, "." + name + ".tmp")
        with open(temporary, "w", encoding="utf-8") as out:
            json.dump(record, out)
        os.replace(temporary, os.path.join(self.directory, name + ".json"))
        return "250 OK queued as " + name


def authenticator(user, password):
    def check(server, session, envelope, mechanism, auth_data):
        ok = (isinstance(auth_data, LoginPassword)
              and auth_data.login.decode() == user and auth_data.password.decode() == password)
        # handled=False: aiosmtpd itself answers a failure with 535.
        return AuthResult(success=ok, handled=False)
    return check


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--mode", choices=["none", "starttls", "ssl"], default="none")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--user")
    parser.add_argument("--password")
    args = parser.parse_args()

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    print("BOUND", sock.getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    command = (await loop.run_in_executor(None, sys.stdin.readline)).split()
    if not command or command[0] != "LISTEN":
        return  # stdin closed: the test is done with a relay that never came up
    delay = float(command[1]) if len(command) > 1 else 0.0

    context = None
    if args.mode != "none":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
    starttls = args.mode == "starttls"
    extra = {}
    if args.user:
        extra = {"authenticator": authenticator(args.user, args.password), "auth_required": True,
                 # With SSL on connect the whole connection is TLS; aiosmtpd only counts STARTTLS as TLS.
                 "auth_require_tls": args.mode == "starttls"}

    def factory():
        return SMTP(Sink(args.dir, delay), hostname="smtp.test", tls_context=context if starttls else None,
                    require_starttls=starttls, **extra)

    server = await loop.create_server(factory, sock=sock, ssl=context if args.mode == "ssl" else None)
    print("READY", flush=True)
    async with server:
        await server.serve_forever()


asyncio.run(main())
