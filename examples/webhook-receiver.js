#!/usr/bin/env node
// A Fallow webhook receiver: checks each delivery's Fallow-Signature with WEBHOOK_SECRET, refuses deliveries
// signed more than 5 minutes ago (or not by Fallow) with a 400, and prints each event once, as one JSON line.
// Usage: WEBHOOK_SECRET=... node examples/webhook-receiver.js [port]   (listens on 127.0.0.1, port 8080 by default)
'use strict';
const { createHmac, timingSafeEqual } = require('node:crypto');
const http = require('node:http');

/** Whether `body` (the raw bytes received) was signed with `secret` less than 5 minutes ago. */
function verify(secret, header, body, now = Date.now()) {
  const fields = Object.fromEntries(String(header).split(',').map((f) => f.split('=')));
  const t = Number(fields.t);
  if (!Number.isInteger(t) || Math.abs(now / 1000 - t) > 300) return false; // a replay, or clocks far apart
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  const given = Buffer.from(fields.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = process.env.WEBHOOK_SECRET;
if (!secret) {
  console.error('set WEBHOOK_SECRET to the subscription\'s secret');
  process.exit(2);
}
const seen = new Set(); // a delivery may come twice (at least once): its Fallow-Delivery tells
http
  .createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method !== 'POST' || !verify(secret, req.headers['fallow-signature'], body)) return res.writeHead(400).end();
      const delivery = req.headers['fallow-delivery'];
      if (!seen.has(delivery)) console.log(body.toString('utf8'));
      seen.add(delivery);
      res.writeHead(204).end(); // any 2xx; anything else (or no answer in time) is retried
    });
  })
  .listen(Number(process.argv[2] ?? 8080), '127.0.0.1');
