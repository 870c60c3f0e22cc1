/**
 * The ids the platform gives its records (vacancies, and cards in the feed): ASCII letters, digits and . _ : -.
 * Kept to ASCII because ids break ties in the lists' order, and that order must be one order in every store:
 * PostgreSQL compares ids byte by byte (UTF-8, collation "C"), JavaScript by UTF-16 code units, and the two
 * disagree beyond the Basic Multilingual Plane.
 */
export const RECORD_ID_PATTERN = '^[A-Za-z0-9._:-]+$';
export const RECORD_ID_RULE = 'may hold only letters, digits and . _ : -';
