"""Mail: the only package that speaks IMAP and SMTP (design.md, mail/).

One job per module:
  config    MailConfig from a TOML section; passwords only from environment variables
  server    EmbeddedMailServer: local IMAP (pymap, maildir) + SMTP (aiosmtpd) on loopback
  intake    poll IMAP: fetch unseen raw messages, then acknowledge or quarantine them
  extract   raw bytes -> ExtractedMessage (sender, subject, the player's own text, robot flag)
  htmltext  HTML body -> text;  quotes: strip quoted replies, signatures, list footers
  compose   EmailMessage with text + HTML, inline images (cid:), attachments, reply headers
  outbox    send a batch with aiosmtplib; one result per message, never raises
  commands  the `moderator mail-server` verb

Submodules are imported explicitly (the server pulls in pymap, which the rest does not need).
"""
